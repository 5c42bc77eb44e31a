; cucpu-debug-builtins describes threadIdx, blockIdx, blockDim and gridDim
; to debuggers in functions with debug information: artificial locals whose
; DWARF locations read the CucpuThread (threadIdx at 0) and, through its
; block pointer at 24, the CucpuBlock (blockIdx at 0, blockDim at 12,
; gridDim at 24). The thread pointer is kept in a volatile slot, so no
; optimization takes it away. Functions without debug information are left
; alone.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-debug-builtins %s | FileCheck %s

; CHECK-LABEL: define void @k(ptr %cucpu.thread, ptr %out)
; CHECK: %cucpu.dbg.thread = alloca ptr
; CHECK-NEXT: store volatile ptr %cucpu.thread, ptr %cucpu.dbg.thread
; CHECK-NEXT: #dbg_declare(ptr %cucpu.dbg.thread, [[TID:![0-9]+]], !DIExpression(DW_OP_deref, DW_OP_plus_uconst, 0),
; CHECK-NEXT: #dbg_declare(ptr %cucpu.dbg.thread, [[BID:![0-9]+]], !DIExpression(DW_OP_deref, DW_OP_plus_uconst, 24, DW_OP_deref, DW_OP_plus_uconst, 0),
; CHECK-NEXT: #dbg_declare(ptr %cucpu.dbg.thread, [[BDIM:![0-9]+]], !DIExpression(DW_OP_deref, DW_OP_plus_uconst, 24, DW_OP_deref, DW_OP_plus_uconst, 12),
; CHECK-NEXT: #dbg_declare(ptr %cucpu.dbg.thread, [[GDIM:![0-9]+]], !DIExpression(DW_OP_deref, DW_OP_plus_uconst, 24, DW_OP_deref, DW_OP_plus_uconst, 24),

; CHECK-LABEL: define void @nodebug(ptr %cucpu.thread, ptr %out)
; CHECK-NEXT: ret void

; CHECK-DAG: [[TID]] = !DILocalVariable(name: "threadIdx", {{.*}}type: [[UINT3:![0-9]+]], flags: DIFlagArtificial)
; CHECK-DAG: [[BID]] = !DILocalVariable(name: "blockIdx", {{.*}}type: [[UINT3]], flags: DIFlagArtificial)
; CHECK-DAG: [[BDIM]] = !DILocalVariable(name: "blockDim", {{.*}}type: [[DIM3:![0-9]+]], flags: DIFlagArtificial)
; CHECK-DAG: [[GDIM]] = !DILocalVariable(name: "gridDim", {{.*}}type: [[DIM3]], flags: DIFlagArtificial)
; CHECK-DAG: [[UINT3]] = !DICompositeType(tag: DW_TAG_structure_type, name: "uint3", {{.*}}size: 96
; CHECK-DAG: [[DIM3]] = !DICompositeType(tag: DW_TAG_structure_type, name: "dim3", {{.*}}size: 96
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out) !dbg !4 {
  store i32 1, ptr %out, !dbg !8
  ret void, !dbg !8
}
define ptx_kernel void @nodebug(ptr %out) {
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cu", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 3, type: !5, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!8 = !DILocation(line: 4, column: 3, scope: !4)
