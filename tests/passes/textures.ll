; cucpu-textures gives each texture reference its launch-time description:
; the handle of reference K (K its place among the image's texture
; references) becomes the address of entry K of CucpuBlock::TexRefs (the
; pointer at offset 64 of the block; entries of 144 bytes, TextureAbi.h).
; The variables and cucc's __cucpu_texref_type markers disappear.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-textures %s | FileCheck %s

; CHECK-NOT: @tex =
; CHECK-NOT: @other =
; CHECK-LABEL: define void @k(
; CHECK: [[T1:%.*]] = getelementptr inbounds i8, ptr %cucpu.block, i64 64
; CHECK-NEXT: %texrefs = load ptr, ptr [[T1]]
; CHECK-NEXT: %tex = getelementptr inbounds i8, ptr %texrefs, i64 0
; CHECK-NEXT: [[TEX:%.*]] = ptrtoint ptr %tex to i64
; CHECK: %texrefs2 = load ptr
; CHECK-NEXT: %other = getelementptr inbounds i8, ptr %texrefs2, i64 144
; CHECK-NEXT: [[OTHER:%.*]] = ptrtoint ptr %other to i64
; CHECK-NEXT: call void @__cucpu_tex_fetch_index(i64 [[OTHER]], i32 3, ptr %slot)
; CHECK-NEXT: call void @__cucpu_tex_fetch_index(i64 [[TEX]], i32 3, ptr %slot)
; CHECK-NOT: __cucpu_texref_type
; CHECK-NOT: texsurf.handle
target triple = "nvptx64-nvidia-cuda"
@tex = addrspace(1) externally_initialized global i64 undef, align 4
@other = addrspace(1) externally_initialized global i64 undef, align 4
define ptx_kernel void @k(ptr %out, ptr %slot) {
  %h = call i64 @llvm.nvvm.texsurf.handle.internal.p1(ptr addrspace(1) @tex)
  call void @__cucpu_texref_type(i64 %h, i32 18882561)
  %g = call i64 @llvm.nvvm.texsurf.handle.internal.p1(ptr addrspace(1) @other)
  call void @__cucpu_texref_type(i64 %g, i32 18882561)
  call void @__cucpu_tex_fetch_index(i64 %g, i32 3, ptr %slot)
  call void @__cucpu_tex_fetch_index(i64 %h, i32 3, ptr %slot)
  ret void
}
declare i64 @llvm.nvvm.texsurf.handle.internal.p1(ptr addrspace(1))
declare void @__cucpu_tex_fetch_index(i64, i32, ptr)
declare void @__cucpu_texref_type(i64, i32)
!nvvm.annotations = !{!0, !1}
!0 = !{ptr addrspace(1) @tex, !"texture", i32 1}
!1 = !{ptr addrspace(1) @other, !"texture", i32 1}
