; cucpu-shared-memory places __shared__ variables in the block's shared
; memory (CucpuBlock::Shared, at offset 40 of the block): static variables
; at fixed offsets (the more aligned first: b at 0, a after its 64 bytes),
; extern (dynamic) arrays at CucpuBlock::DynamicSharedOffset (offset 36).
; Users keep addrspace(3) pointers through a cast.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-shared-memory %s | FileCheck %s

; CHECK-NOT: addrspace(3) global
; CHECK-LABEL: define void @k(ptr %cucpu.thread, i32 %i)
; CHECK: [[DYNOFF:%.*]] = getelementptr inbounds i8, ptr %cucpu.block{{[0-9]*}}, i64 36
; CHECK-NEXT: %cucpu.dynshared = load i32, ptr [[DYNOFF]]
; CHECK-NEXT: [[DYN64:%.*]] = zext i32 %cucpu.dynshared to i64
; CHECK-NEXT: %dyn = getelementptr inbounds i8, ptr %cucpu.shared{{[0-9]*}}, i64 [[DYN64]]
; CHECK-NEXT: [[DYN:%.*]] = addrspacecast ptr %dyn to ptr addrspace(3)
; CHECK: %b = getelementptr inbounds i8, ptr %cucpu.shared{{[0-9]*}}, i64 0
; CHECK-NEXT: [[B:%.*]] = addrspacecast ptr %b to ptr addrspace(3)
; CHECK: [[SH:%.*]] = getelementptr inbounds i8, ptr %cucpu.block, i64 40
; CHECK-NEXT: %cucpu.shared = load ptr, ptr [[SH]]
; CHECK-NEXT: %a = getelementptr inbounds i8, ptr %cucpu.shared, i64 64
; CHECK-NEXT: [[A:%.*]] = addrspacecast ptr %a to ptr addrspace(3)
; CHECK-NEXT: getelementptr [16 x i32], ptr addrspace(3) [[A]], i32 0, i32 %i
; CHECK: getelementptr [8 x double], ptr addrspace(3) [[B]], i32 0, i32 %i
; CHECK: getelementptr [0 x float], ptr addrspace(3) [[DYN]], i32 0, i32 %i
target triple = "nvptx64-nvidia-cuda"
@a = internal addrspace(3) global [16 x i32] undef, align 4
@b = internal addrspace(3) global [8 x double] undef, align 8
@dyn = external addrspace(3) global [0 x float], align 4
define ptx_kernel void @k(i32 %i) {
  %pa = getelementptr [16 x i32], ptr addrspace(3) @a, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %pa
  %pb = getelementptr [8 x double], ptr addrspace(3) @b, i32 0, i32 %i
  store double 1.0, ptr addrspace(3) %pb
  %pd = getelementptr [0 x float], ptr addrspace(3) @dyn, i32 0, i32 %i
  store float 1.0, ptr addrspace(3) %pd
  ret void
}
