/*
 * cucpu -- public CUDA driver API header.
 *
 * This is cucpu's own, independently written declaration of the CUDA driver
 * API (API level 13.0).  Type layouts, enumerator values and entry point
 * signatures follow the documented CUDA ABI so that programs built against
 * this header run on cucpu's driver, which executes kernels on the CPU.
 *
 * Conventions
 *   - Everything is declared with C linkage and works from C99 and C++.
 *   - Entry points are declared under their *versioned* exported names
 *     (cuMemAlloc_v2, cuCtxDestroy_v2, ...).  The mapping from the plain
 *     names used in programs to those symbols is at the very end of this
 *     file and is left out when __CUDA_API_VERSION_INTERNAL is defined
 *     (the driver implementation builds that way).
 *   - Defining CUDA_API_PER_THREAD_DEFAULT_STREAM before including this
 *     header routes stream-ordered calls to their _ptds/_ptsz variants.
 */
#ifndef CUCPU_CUDA_H
#define CUCPU_CUDA_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------ */
/* Version, calling convention and helper macros                            */
/* ------------------------------------------------------------------------ */

/// API version this header describes (major * 1000 + minor * 10).
#define CUDA_VERSION 13000

/// Calling convention of driver entry points (cucpu: platform default).
#ifndef CUDAAPI
#define CUDAAPI
#endif

/// Calling convention of user callbacks handed to the driver.
#ifndef CUDA_CB
#define CUDA_CB
#endif

/// Marks superseded entry points; only active when the user asks for the
/// warnings, so that -Werror builds of old code keep compiling.
#if defined(CUCPU_WARN_DEPRECATED) && (defined(__GNUC__) || defined(__clang__))
#define CUCPU_DEPRECATED __attribute__((deprecated))
#else
#define CUCPU_DEPRECATED
#endif

/// Anonymous unions/structs are not C99; mark them so -pedantic stays quiet.
#if defined(__GNUC__) || defined(__clang__)
#define CUCPU_EXTENSION __extension__
#else
#define CUCPU_EXTENSION
#endif

/// Per-thread default stream selection.  The _ptds suffix is used by
/// synchronous copies/sets, _ptsz by calls taking a stream argument.
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define __CUDA_API_PER_THREAD_DEFAULT_STREAM
#define __CUDA_API_PTDS(api) api##_ptds
#define __CUDA_API_PTSZ(api) api##_ptsz
#else
#define __CUDA_API_PTDS(api) api
#define __CUDA_API_PTSZ(api) api
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Scalar types and opaque handles                                          */
/* ------------------------------------------------------------------------ */

typedef uint32_t cuuint32_t; ///< 32-bit unsigned used by the API
typedef uint64_t cuuint64_t; ///< 64-bit unsigned used by the API

/// Device address.  cucpu is 64-bit only, so this is always 64 bits wide.
typedef unsigned long long CUdeviceptr_v2;
typedef CUdeviceptr_v2 CUdeviceptr;

/// Device ordinal.
typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;

typedef struct CUctx_st *CUcontext;                       ///< context
typedef struct CUmod_st *CUmodule;                        ///< loaded module
typedef struct CUfunc_st *CUfunction;                     ///< module function
typedef struct CUlib_st *CUlibrary;                       ///< context-independent library
typedef struct CUkern_st *CUkernel;                       ///< library kernel
typedef struct CUarray_st *CUarray;                       ///< array
typedef struct CUmipmappedArray_st *CUmipmappedArray;     ///< mipmapped array
typedef struct CUtexref_st *CUtexref;                     ///< texture reference
typedef struct CUsurfref_st *CUsurfref;                   ///< surface reference
typedef struct CUevent_st *CUevent;                       ///< event
typedef struct CUstream_st *CUstream;                     ///< stream
typedef struct CUgraphicsResource_st *CUgraphicsResource; ///< interop resource
typedef unsigned long long CUtexObject_v1;                ///< texture object
typedef CUtexObject_v1 CUtexObject;
typedef unsigned long long CUsurfObject_v1;               ///< surface object
typedef CUsurfObject_v1 CUsurfObject;
typedef struct CUextMemory_st *CUexternalMemory;          ///< imported memory
typedef struct CUextSemaphore_st *CUexternalSemaphore;    ///< imported semaphore
typedef struct CUgraph_st *CUgraph;                       ///< graph
typedef struct CUgraphNode_st *CUgraphNode;               ///< graph node
typedef struct CUgraphExec_st *CUgraphExec;               ///< executable graph
typedef struct CUmemPoolHandle_st *CUmemoryPool;          ///< memory pool
typedef struct CUuserObject_st *CUuserObject;             ///< graph user object
typedef cuuint64_t CUgraphConditionalHandle;              ///< conditional node handle
typedef struct CUgraphDeviceUpdatableNode_st *CUgraphDeviceNode; ///< device-side node
typedef struct CUasyncCallbackEntry_st *CUasyncCallbackHandle;   ///< async notification
typedef struct CUgreenCtx_st *CUgreenCtx;                 ///< green context
typedef struct CUlinkState_st *CUlinkState;               ///< JIT linker session
typedef struct CUdevResourceDesc_st *CUdevResourceDesc;   ///< resource descriptor
typedef struct CUlogsCallbackEntry_st *CUlogsCallbackHandle; ///< log callback
typedef unsigned int CUlogIterator;                       ///< position in the log
typedef unsigned long long CUmemGenericAllocationHandle_v1; ///< VMM allocation
typedef CUmemGenericAllocationHandle_v1 CUmemGenericAllocationHandle;

/// 128-bit device UUID (shared with the runtime headers, hence the guard).
#ifndef CU_UUID_HAS_BEEN_DEFINED
#define CU_UUID_HAS_BEEN_DEFINED
typedef struct CUuuid_st {
    char bytes[16];
} CUuuid;
#endif

/// Size in bytes of IPC and fabric handles.
#define CU_IPC_HANDLE_SIZE 64

/// Fabric handle for VMM allocations.
typedef struct CUmemFabricHandle_st {
    unsigned char data[CU_IPC_HANDLE_SIZE];
} CUmemFabricHandle_v1;
typedef CUmemFabricHandle_v1 CUmemFabricHandle;

/// Inter-process event handle.
typedef struct CUipcEventHandle_st {
    char reserved[CU_IPC_HANDLE_SIZE];
} CUipcEventHandle_v1;
typedef CUipcEventHandle_v1 CUipcEventHandle;

/// Inter-process memory handle.
typedef struct CUipcMemHandle_st {
    char reserved[CU_IPC_HANDLE_SIZE];
} CUipcMemHandle_v1;
typedef CUipcMemHandle_v1 CUipcMemHandle;

/// Stream handle that always means the legacy (synchronizing) NULL stream.
#define CU_STREAM_LEGACY ((CUstream)0x1)
/// Stream handle that always means the calling thread's default stream.
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

/// Base offsets of architecture-specific and family-specific JIT targets.
#define CU_COMPUTE_ACCELERATED_TARGET_BASE 0x10000
#define CU_COMPUTE_FAMILY_TARGET_BASE 0x20000

/// Status code returned by every driver entry point.
typedef enum cudaError_enum {
    CUDA_SUCCESS                              = 0,
    CUDA_ERROR_INVALID_VALUE                  = 1,
    CUDA_ERROR_OUT_OF_MEMORY                  = 2,
    CUDA_ERROR_NOT_INITIALIZED                = 3,
    CUDA_ERROR_DEINITIALIZED                  = 4,
    CUDA_ERROR_PROFILER_DISABLED              = 5,
    CUDA_ERROR_PROFILER_NOT_INITIALIZED       = 6,
    CUDA_ERROR_PROFILER_ALREADY_STARTED       = 7,
    CUDA_ERROR_PROFILER_ALREADY_STOPPED       = 8,
    CUDA_ERROR_STUB_LIBRARY                   = 34,
    CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER     = 36,
    CUDA_ERROR_DEVICE_UNAVAILABLE             = 46,
    CUDA_ERROR_NO_DEVICE                      = 100,
    CUDA_ERROR_INVALID_DEVICE                 = 101,
    CUDA_ERROR_DEVICE_NOT_LICENSED            = 102,
    CUDA_ERROR_INVALID_IMAGE                  = 200,
    CUDA_ERROR_INVALID_CONTEXT                = 201,
    CUDA_ERROR_CONTEXT_ALREADY_CURRENT        = 202,
    CUDA_ERROR_MAP_FAILED                     = 205,
    CUDA_ERROR_UNMAP_FAILED                   = 206,
    CUDA_ERROR_ARRAY_IS_MAPPED                = 207,
    CUDA_ERROR_ALREADY_MAPPED                 = 208,
    CUDA_ERROR_NO_BINARY_FOR_GPU              = 209,
    CUDA_ERROR_ALREADY_ACQUIRED               = 210,
    CUDA_ERROR_NOT_MAPPED                     = 211,
    CUDA_ERROR_NOT_MAPPED_AS_ARRAY            = 212,
    CUDA_ERROR_NOT_MAPPED_AS_POINTER          = 213,
    CUDA_ERROR_ECC_UNCORRECTABLE              = 214,
    CUDA_ERROR_UNSUPPORTED_LIMIT              = 215,
    CUDA_ERROR_CONTEXT_ALREADY_IN_USE         = 216,
    CUDA_ERROR_PEER_ACCESS_UNSUPPORTED        = 217,
    CUDA_ERROR_INVALID_PTX                    = 218,
    CUDA_ERROR_INVALID_GRAPHICS_CONTEXT       = 219,
    CUDA_ERROR_NVLINK_UNCORRECTABLE           = 220,
    CUDA_ERROR_JIT_COMPILER_NOT_FOUND         = 221,
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION        = 222,
    CUDA_ERROR_JIT_COMPILATION_DISABLED       = 223,
    CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY      = 224,
    CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC       = 225,
    CUDA_ERROR_CONTAINED                      = 226,
    CUDA_ERROR_INVALID_SOURCE                 = 300,
    CUDA_ERROR_FILE_NOT_FOUND                 = 301,
    CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302,
    CUDA_ERROR_SHARED_OBJECT_INIT_FAILED      = 303,
    CUDA_ERROR_OPERATING_SYSTEM               = 304,
    CUDA_ERROR_INVALID_HANDLE                 = 400,
    CUDA_ERROR_ILLEGAL_STATE                  = 401,
    CUDA_ERROR_LOSSY_QUERY                    = 402,
    CUDA_ERROR_NOT_FOUND                      = 500,
    CUDA_ERROR_NOT_READY                      = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS                = 700,
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES        = 701,
    CUDA_ERROR_LAUNCH_TIMEOUT                 = 702,
    CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING  = 703,
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED    = 704,
    CUDA_ERROR_PEER_ACCESS_NOT_ENABLED        = 705,
    CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE         = 708,
    CUDA_ERROR_CONTEXT_IS_DESTROYED           = 709,
    CUDA_ERROR_ASSERT                         = 710,
    CUDA_ERROR_TOO_MANY_PEERS                 = 711,
    CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
    CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED     = 713,
    CUDA_ERROR_HARDWARE_STACK_ERROR           = 714,
    CUDA_ERROR_ILLEGAL_INSTRUCTION            = 715,
    CUDA_ERROR_MISALIGNED_ADDRESS             = 716,
    CUDA_ERROR_INVALID_ADDRESS_SPACE          = 717,
    CUDA_ERROR_INVALID_PC                     = 718,
    CUDA_ERROR_LAUNCH_FAILED                  = 719,
    CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE   = 720,
    CUDA_ERROR_TENSOR_MEMORY_LEAK             = 721,
    CUDA_ERROR_NOT_PERMITTED                  = 800,
    CUDA_ERROR_NOT_SUPPORTED                  = 801,
    CUDA_ERROR_SYSTEM_NOT_READY               = 802,
    CUDA_ERROR_SYSTEM_DRIVER_MISMATCH         = 803,
    CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
    CUDA_ERROR_MPS_CONNECTION_FAILED          = 805,
    CUDA_ERROR_MPS_RPC_FAILURE                = 806,
    CUDA_ERROR_MPS_SERVER_NOT_READY           = 807,
    CUDA_ERROR_MPS_MAX_CLIENTS_REACHED        = 808,
    CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED    = 809,
    CUDA_ERROR_MPS_CLIENT_TERMINATED          = 810,
    CUDA_ERROR_CDP_NOT_SUPPORTED              = 811,
    CUDA_ERROR_CDP_VERSION_MISMATCH           = 812,
    CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED     = 900,
    CUDA_ERROR_STREAM_CAPTURE_INVALIDATED     = 901,
    CUDA_ERROR_STREAM_CAPTURE_MERGE           = 902,
    CUDA_ERROR_STREAM_CAPTURE_UNMATCHED       = 903,
    CUDA_ERROR_STREAM_CAPTURE_UNJOINED        = 904,
    CUDA_ERROR_STREAM_CAPTURE_ISOLATION       = 905,
    CUDA_ERROR_STREAM_CAPTURE_IMPLICIT        = 906,
    CUDA_ERROR_CAPTURED_EVENT                 = 907,
    CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD    = 908,
    CUDA_ERROR_TIMEOUT                        = 909,
    CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE      = 910,
    CUDA_ERROR_EXTERNAL_DEVICE                = 911,
    CUDA_ERROR_INVALID_CLUSTER_SIZE           = 912,
    CUDA_ERROR_FUNCTION_NOT_LOADED            = 913,
    CUDA_ERROR_INVALID_RESOURCE_TYPE          = 914,
    CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = 915,
    CUDA_ERROR_KEY_ROTATION                   = 916,
    CUDA_ERROR_UNKNOWN                        = 999
} CUresult;

/// Queryable device properties (cuDeviceGetAttribute).  Several names are
/// aliases that share a value with an older spelling.
typedef enum CUdevice_attribute_enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK                         = 1,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X                               = 2,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y                               = 3,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z                               = 4,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X                                = 5,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y                                = 6,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z                                = 7,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK                   = 8,
    CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK                       = 8,
    CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY                         = 9,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE                                     = 10,
    CU_DEVICE_ATTRIBUTE_MAX_PITCH                                     = 11,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK                       = 12,
    CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK                           = 12,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE                                    = 13,
    CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT                             = 14,
    CU_DEVICE_ATTRIBUTE_GPU_OVERLAP                                   = 15,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT                          = 16,
    CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT                           = 17,
    CU_DEVICE_ATTRIBUTE_INTEGRATED                                    = 18,
    CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY                           = 19,
    CU_DEVICE_ATTRIBUTE_COMPUTE_MODE                                  = 20,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH                       = 21,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH                       = 22,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT                      = 23,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH                       = 24,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT                      = 25,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH                       = 26,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH               = 27,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT              = 28,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS              = 29,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH                 = 27,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT                = 28,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES             = 29,
    CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT                             = 30,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS                            = 31,
    CU_DEVICE_ATTRIBUTE_ECC_ENABLED                                   = 32,
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID                                    = 33,
    CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID                                 = 34,
    CU_DEVICE_ATTRIBUTE_TCC_DRIVER                                    = 35,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE                             = 36,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH                       = 37,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE                                 = 38,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR                = 39,
    CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT                            = 40,
    CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING                            = 41,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH               = 42,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS              = 43,
    CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER                              = 44,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH                = 45,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT               = 46,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE             = 47,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE            = 48,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE             = 49,
    CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID                                 = 50,
    CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT                       = 51,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH                  = 52,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH          = 53,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS         = 54,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH                       = 55,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH                       = 56,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT                      = 57,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH                       = 58,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT                      = 59,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH                       = 60,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH               = 61,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS              = 62,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH               = 63,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT              = 64,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS              = 65,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH                  = 66,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH          = 67,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS         = 68,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH                = 69,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH                = 70,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT               = 71,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH                = 72,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH             = 73,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT            = 74,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR                      = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR                      = 76,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH             = 77,
    CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED                   = 78,
    CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED                     = 79,
    CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED                      = 80,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR          = 81,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR              = 82,
    CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY                                = 83,
    CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD                               = 84,
    CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID                      = 85,
    CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED                  = 86,
    CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO         = 87,
    CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS                        = 88,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS                     = 89,
    CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED                  = 90,
    CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM       = 91,
    CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1                     = 92,
    CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1              = 93,
    CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1              = 94,
    CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH                            = 95,
    CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH               = 96,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN             = 97,
    CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES                       = 98,
    CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED                       = 99,
    CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES  = 100,
    CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST           = 101,
    CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED          = 102,
    CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED           = 102,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED   = 103,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED            = 104,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED        = 105,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR                 = 106,
    CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED                 = 107,
    CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE                  = 108,
    CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE                 = 109,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED       = 110,
    CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK              = 111,
    CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED                   = 112,
    CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED             = 113,
    CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED          = 114,
    CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED                        = 115,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED                     = 116,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS          = 117,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING               = 118,
    CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES                = 119,
    CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH                                = 120,
    CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED         = 121,
    CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS                 = 122,
    CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR                 = 123,
    CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED                             = 124,
    CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED                           = 125,
    CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT                         = 126,
    CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED                   = 127,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED                  = 128,
    CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS                     = 129,
    CU_DEVICE_ATTRIBUTE_NUMA_CONFIG                                   = 130,
    CU_DEVICE_ATTRIBUTE_NUMA_ID                                       = 131,
    CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED                           = 132,
    CU_DEVICE_ATTRIBUTE_MPS_ENABLED                                   = 133,
    CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID                                  = 134,
    CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED                           = 135,
    CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK                 = 136,
    CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH                 = 137,
    CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED                          = 138,
    CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID                             = 139,
    CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID                          = 140,
    CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 141,
    CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED              = 142,
    CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED             = 143,
    CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED                   = 144,
    CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED      = 145,
    CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED                  = 146,
    CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED     = 147,
    CU_DEVICE_ATTRIBUTE_MAX
} CUdevice_attribute;

/// Peer-to-peer link properties (cuDeviceGetP2PAttribute).
typedef enum CUdevice_P2PAttribute_enum {
    CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK                     = 0x01,
    CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED                     = 0x02,
    CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED              = 0x03,
    CU_DEVICE_P2P_ATTRIBUTE_ACCESS_ACCESS_SUPPORTED              = 0x04,
    CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED          = 0x04,
    CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED = 0x05
} CUdevice_P2PAttribute;

/// Context creation flags.  The low three bits select the host-side
/// synchronization strategy.
typedef enum CUctx_flags_enum {
    CU_CTX_SCHED_AUTO           = 0x00,
    CU_CTX_SCHED_SPIN           = 0x01,
    CU_CTX_SCHED_YIELD          = 0x02,
    CU_CTX_SCHED_BLOCKING_SYNC  = 0x04,
    CU_CTX_BLOCKING_SYNC        = 0x04,
    CU_CTX_SCHED_MASK           = 0x07,
    CU_CTX_MAP_HOST             = 0x08,
    CU_CTX_LMEM_RESIZE_TO_MAX   = 0x10,
    CU_CTX_COREDUMP_ENABLE      = 0x20,
    CU_CTX_USER_COREDUMP_ENABLE = 0x40,
    CU_CTX_SYNC_MEMOPS          = 0x80,
    CU_CTX_FLAGS_MASK           = 0xFF
} CUctx_flags;

/// Event scheduling flags.
typedef enum CUevent_sched_flags_enum {
    CU_EVENT_SCHED_AUTO          = 0x00,
    CU_EVENT_SCHED_SPIN          = 0x01,
    CU_EVENT_SCHED_YIELD         = 0x02,
    CU_EVENT_SCHED_BLOCKING_SYNC = 0x04
} CUevent_sched_flags;

/// OpenCL-interop event scheduling flags.
typedef enum cl_event_flags_enum {
    NVCL_EVENT_SCHED_AUTO          = 0x00,
    NVCL_EVENT_SCHED_SPIN          = 0x01,
    NVCL_EVENT_SCHED_YIELD         = 0x02,
    NVCL_EVENT_SCHED_BLOCKING_SYNC = 0x04
} cl_event_flags;

/// OpenCL-interop context scheduling flags.
typedef enum cl_context_flags_enum {
    NVCL_CTX_SCHED_AUTO          = 0x00,
    NVCL_CTX_SCHED_SPIN          = 0x01,
    NVCL_CTX_SCHED_YIELD         = 0x02,
    NVCL_CTX_SCHED_BLOCKING_SYNC = 0x04
} cl_context_flags;

/// Per-context resource limits (cuCtxSetLimit / cuCtxGetLimit).
typedef enum CUlimit_enum {
    CU_LIMIT_STACK_SIZE                       = 0x00,
    CU_LIMIT_PRINTF_FIFO_SIZE                 = 0x01,
    CU_LIMIT_MALLOC_HEAP_SIZE                 = 0x02,
    CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH           = 0x03,
    CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 0x04,
    CU_LIMIT_MAX_L2_FETCH_GRANULARITY         = 0x05,
    CU_LIMIT_PERSISTING_L2_CACHE_SIZE         = 0x06,
    CU_LIMIT_SHMEM_SIZE                       = 0x07,
    CU_LIMIT_CIG_ENABLED                      = 0x08,
    CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED       = 0x09,
    CU_LIMIT_MAX
} CUlimit;

/// Preferred split between L1 cache and shared memory.
typedef enum CUfunc_cache_enum {
    CU_FUNC_CACHE_PREFER_NONE   = 0x00,
    CU_FUNC_CACHE_PREFER_SHARED = 0x01,
    CU_FUNC_CACHE_PREFER_L1     = 0x02,
    CU_FUNC_CACHE_PREFER_EQUAL  = 0x03
} CUfunc_cache;

/// Shared memory bank width (legacy; no effect on current hardware).
typedef enum CUsharedconfig_enum {
    CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE    = 0x00,
    CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE  = 0x01,
    CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE = 0x02
} CUsharedconfig;

/// Shared memory carveout presets, in percent of the maximum.
typedef enum CUshared_carveout_enum {
    CU_SHAREDMEM_CARVEOUT_DEFAULT    = -1,
    CU_SHAREDMEM_CARVEOUT_MAX_SHARED = 100,
    CU_SHAREDMEM_CARVEOUT_MAX_L1     = 0
} CUshared_carveout;

/// Device compute mode.
typedef enum CUcomputemode_enum {
    CU_COMPUTEMODE_DEFAULT           = 0,
    CU_COMPUTEMODE_PROHIBITED        = 2,
    CU_COMPUTEMODE_EXCLUSIVE_PROCESS = 3
} CUcomputemode;

/// Kinds of execution affinity a context may be created with.
typedef enum CUexecAffinityType_enum {
    CU_EXEC_AFFINITY_TYPE_SM_COUNT = 0,
    CU_EXEC_AFFINITY_TYPE_MAX
} CUexecAffinityType;

/// Data kinds used for CUDA-in-graphics contexts.
typedef enum CUcigDataType_enum {
    CIG_DATA_TYPE_D3D12_COMMAND_QUEUE = 0x1,
    CIG_DATA_TYPE_NV_BLOB             = 0x2
} CUcigDataType;

/// Stream creation flags.
typedef enum CUstream_flags_enum {
    CU_STREAM_DEFAULT      = 0x0,
    CU_STREAM_NON_BLOCKING = 0x1
} CUstream_flags;

/// Event creation flags.
typedef enum CUevent_flags_enum {
    CU_EVENT_DEFAULT        = 0x0,
    CU_EVENT_BLOCKING_SYNC  = 0x1,
    CU_EVENT_DISABLE_TIMING = 0x2,
    CU_EVENT_INTERPROCESS   = 0x4
} CUevent_flags;

/// Flags for cuEventRecordWithFlags.
typedef enum CUevent_record_flags_enum {
    CU_EVENT_RECORD_DEFAULT  = 0x0,
    CU_EVENT_RECORD_EXTERNAL = 0x1
} CUevent_record_flags;

/// Flags for cuStreamWaitEvent.
typedef enum CUevent_wait_flags_enum {
    CU_EVENT_WAIT_DEFAULT  = 0x0,
    CU_EVENT_WAIT_EXTERNAL = 0x1
} CUevent_wait_flags;

/// Kind of memory a pointer or copy operand refers to.
typedef enum CUmemorytype_enum {
    CU_MEMORYTYPE_HOST    = 0x01,
    CU_MEMORYTYPE_DEVICE  = 0x02,
    CU_MEMORYTYPE_ARRAY   = 0x03,
    CU_MEMORYTYPE_UNIFIED = 0x04
} CUmemorytype;

/// Attributes queryable with cuPointerGetAttribute(s).
typedef enum CUpointer_attribute_enum {
    CU_POINTER_ATTRIBUTE_CONTEXT                    = 1,
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE                = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER             = 3,
    CU_POINTER_ATTRIBUTE_HOST_POINTER               = 4,
    CU_POINTER_ATTRIBUTE_P2P_TOKENS                 = 5,
    CU_POINTER_ATTRIBUTE_SYNC_MEMOPS                = 6,
    CU_POINTER_ATTRIBUTE_BUFFER_ID                  = 7,
    CU_POINTER_ATTRIBUTE_IS_MANAGED                 = 8,
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL             = 9,
    CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR           = 11,
    CU_POINTER_ATTRIBUTE_RANGE_SIZE                 = 12,
    CU_POINTER_ATTRIBUTE_MAPPED                     = 13,
    CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES       = 14,
    CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15,
    CU_POINTER_ATTRIBUTE_ACCESS_FLAGS               = 16,
    CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE             = 17,
    CU_POINTER_ATTRIBUTE_MAPPING_SIZE               = 18,
    CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR          = 19,
    CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID            = 20,
    CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE   = 21
} CUpointer_attribute;

/// Values of CU_POINTER_ATTRIBUTE_ACCESS_FLAGS.
typedef enum CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS_enum {
    CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE      = 0x0,
    CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ      = 0x1,
    CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE = 0x3
} CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS;

/// Visibility of managed memory (cuMemAllocManaged, cuStreamAttachMemAsync).
typedef enum CUmemAttach_flags_enum {
    CU_MEM_ATTACH_GLOBAL = 0x1,
    CU_MEM_ATTACH_HOST   = 0x2,
    CU_MEM_ATTACH_SINGLE = 0x4
} CUmemAttach_flags;

/// Flags for cuIpcOpenMemHandle.
typedef enum CUipcMem_flags_enum {
    CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 0x1
} CUipcMem_flags;

/// Usage hints for managed memory (cuMemAdvise).
typedef enum CUmem_advise_enum {
    CU_MEM_ADVISE_SET_READ_MOSTLY          = 1,
    CU_MEM_ADVISE_UNSET_READ_MOSTLY        = 2,
    CU_MEM_ADVISE_SET_PREFERRED_LOCATION   = 3,
    CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 4,
    CU_MEM_ADVISE_SET_ACCESSED_BY          = 5,
    CU_MEM_ADVISE_UNSET_ACCESSED_BY        = 6
} CUmem_advise;

/// Attributes queryable with cuMemRangeGetAttribute(s).
typedef enum CUmem_range_attribute_enum {
    CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY                 = 1,
    CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION          = 2,
    CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY                 = 3,
    CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION      = 4,
    CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE     = 5,
    CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID       = 6,
    CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
    CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID   = 8
} CUmem_range_attribute;

/// Element formats of arrays.
typedef enum CUarray_format_enum {
    CU_AD_FORMAT_UNSIGNED_INT8           = 0x01,
    CU_AD_FORMAT_UNSIGNED_INT16          = 0x02,
    CU_AD_FORMAT_UNSIGNED_INT32          = 0x03,
    CU_AD_FORMAT_SIGNED_INT8             = 0x08,
    CU_AD_FORMAT_SIGNED_INT16            = 0x09,
    CU_AD_FORMAT_SIGNED_INT32            = 0x0a,
    CU_AD_FORMAT_HALF                    = 0x10,
    CU_AD_FORMAT_FLOAT                   = 0x20,
    CU_AD_FORMAT_NV12                    = 0xb0,
    CU_AD_FORMAT_UNORM_INT8X1            = 0xc0,
    CU_AD_FORMAT_UNORM_INT8X2            = 0xc1,
    CU_AD_FORMAT_UNORM_INT8X4            = 0xc2,
    CU_AD_FORMAT_UNORM_INT16X1           = 0xc3,
    CU_AD_FORMAT_UNORM_INT16X2           = 0xc4,
    CU_AD_FORMAT_UNORM_INT16X4           = 0xc5,
    CU_AD_FORMAT_SNORM_INT8X1            = 0xc6,
    CU_AD_FORMAT_SNORM_INT8X2            = 0xc7,
    CU_AD_FORMAT_SNORM_INT8X4            = 0xc8,
    CU_AD_FORMAT_SNORM_INT16X1           = 0xc9,
    CU_AD_FORMAT_SNORM_INT16X2           = 0xca,
    CU_AD_FORMAT_SNORM_INT16X4           = 0xcb,
    CU_AD_FORMAT_BC1_UNORM               = 0x91,
    CU_AD_FORMAT_BC1_UNORM_SRGB          = 0x92,
    CU_AD_FORMAT_BC2_UNORM               = 0x93,
    CU_AD_FORMAT_BC2_UNORM_SRGB          = 0x94,
    CU_AD_FORMAT_BC3_UNORM               = 0x95,
    CU_AD_FORMAT_BC3_UNORM_SRGB          = 0x96,
    CU_AD_FORMAT_BC4_UNORM               = 0x97,
    CU_AD_FORMAT_BC4_SNORM               = 0x98,
    CU_AD_FORMAT_BC5_UNORM               = 0x99,
    CU_AD_FORMAT_BC5_SNORM               = 0x9a,
    CU_AD_FORMAT_BC6H_UF16               = 0x9b,
    CU_AD_FORMAT_BC6H_SF16               = 0x9c,
    CU_AD_FORMAT_BC7_UNORM               = 0x9d,
    CU_AD_FORMAT_BC7_UNORM_SRGB          = 0x9e,
    CU_AD_FORMAT_P010                    = 0x9f,
    CU_AD_FORMAT_P016                    = 0xa1,
    CU_AD_FORMAT_NV16                    = 0xa2,
    CU_AD_FORMAT_P210                    = 0xa3,
    CU_AD_FORMAT_P216                    = 0xa4,
    CU_AD_FORMAT_YUY2                    = 0xa5,
    CU_AD_FORMAT_Y210                    = 0xa6,
    CU_AD_FORMAT_Y216                    = 0xa7,
    CU_AD_FORMAT_AYUV                    = 0xa8,
    CU_AD_FORMAT_Y410                    = 0xa9,
    CU_AD_FORMAT_Y416                    = 0xb1,
    CU_AD_FORMAT_Y444_PLANAR8            = 0xb2,
    CU_AD_FORMAT_Y444_PLANAR10           = 0xb3,
    CU_AD_FORMAT_YUV444_8bit_SemiPlanar  = 0xb4,
    CU_AD_FORMAT_YUV444_16bit_SemiPlanar = 0xb5,
    CU_AD_FORMAT_UNORM_INT_101010_2      = 0x50,
    CU_AD_FORMAT_MAX                     = 0x7FFFFFFF
} CUarray_format;

/// Texture addressing modes.
typedef enum CUaddress_mode_enum {
    CU_TR_ADDRESS_MODE_WRAP   = 0,
    CU_TR_ADDRESS_MODE_CLAMP  = 1,
    CU_TR_ADDRESS_MODE_MIRROR = 2,
    CU_TR_ADDRESS_MODE_BORDER = 3
} CUaddress_mode;

/// Texture filtering modes.
typedef enum CUfilter_mode_enum {
    CU_TR_FILTER_MODE_POINT  = 0,
    CU_TR_FILTER_MODE_LINEAR = 1
} CUfilter_mode;

/// Kinds of resource behind a texture or surface object.
typedef enum CUresourcetype_enum {
    CU_RESOURCE_TYPE_ARRAY           = 0x00,
    CU_RESOURCE_TYPE_MIPMAPPED_ARRAY = 0x01,
    CU_RESOURCE_TYPE_LINEAR          = 0x02,
    CU_RESOURCE_TYPE_PITCH2D         = 0x03
} CUresourcetype;

/// Formats a texture resource view may reinterpret data as.
typedef enum CUresourceViewFormat_enum {
    CU_RES_VIEW_FORMAT_NONE          = 0x00,
    CU_RES_VIEW_FORMAT_UINT_1X8      = 0x01,
    CU_RES_VIEW_FORMAT_UINT_2X8      = 0x02,
    CU_RES_VIEW_FORMAT_UINT_4X8      = 0x03,
    CU_RES_VIEW_FORMAT_SINT_1X8      = 0x04,
    CU_RES_VIEW_FORMAT_SINT_2X8      = 0x05,
    CU_RES_VIEW_FORMAT_SINT_4X8      = 0x06,
    CU_RES_VIEW_FORMAT_UINT_1X16     = 0x07,
    CU_RES_VIEW_FORMAT_UINT_2X16     = 0x08,
    CU_RES_VIEW_FORMAT_UINT_4X16     = 0x09,
    CU_RES_VIEW_FORMAT_SINT_1X16     = 0x0a,
    CU_RES_VIEW_FORMAT_SINT_2X16     = 0x0b,
    CU_RES_VIEW_FORMAT_SINT_4X16     = 0x0c,
    CU_RES_VIEW_FORMAT_UINT_1X32     = 0x0d,
    CU_RES_VIEW_FORMAT_UINT_2X32     = 0x0e,
    CU_RES_VIEW_FORMAT_UINT_4X32     = 0x0f,
    CU_RES_VIEW_FORMAT_SINT_1X32     = 0x10,
    CU_RES_VIEW_FORMAT_SINT_2X32     = 0x11,
    CU_RES_VIEW_FORMAT_SINT_4X32     = 0x12,
    CU_RES_VIEW_FORMAT_FLOAT_1X16    = 0x13,
    CU_RES_VIEW_FORMAT_FLOAT_2X16    = 0x14,
    CU_RES_VIEW_FORMAT_FLOAT_4X16    = 0x15,
    CU_RES_VIEW_FORMAT_FLOAT_1X32    = 0x16,
    CU_RES_VIEW_FORMAT_FLOAT_2X32    = 0x17,
    CU_RES_VIEW_FORMAT_FLOAT_4X32    = 0x18,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC1  = 0x19,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC2  = 0x1a,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC3  = 0x1b,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC4  = 0x1c,
    CU_RES_VIEW_FORMAT_SIGNED_BC4    = 0x1d,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC5  = 0x1e,
    CU_RES_VIEW_FORMAT_SIGNED_BC5    = 0x1f,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC6H = 0x20,
    CU_RES_VIEW_FORMAT_SIGNED_BC6H   = 0x21,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC7  = 0x22
} CUresourceViewFormat;

/// Faces of a cubemap array.
typedef enum CUarray_cubemap_face_enum {
    CU_CUBEMAP_FACE_POSITIVE_X = 0x00,
    CU_CUBEMAP_FACE_NEGATIVE_X = 0x01,
    CU_CUBEMAP_FACE_POSITIVE_Y = 0x02,
    CU_CUBEMAP_FACE_NEGATIVE_Y = 0x03,
    CU_CUBEMAP_FACE_POSITIVE_Z = 0x04,
    CU_CUBEMAP_FACE_NEGATIVE_Z = 0x05
} CUarray_cubemap_face;

/// Function attributes (cuFuncGetAttribute / cuFuncSetAttribute).
typedef enum CUfunction_attribute_enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK                = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES                    = 1,
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES                     = 2,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES                     = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS                             = 4,
    CU_FUNC_ATTRIBUTE_PTX_VERSION                          = 5,
    CU_FUNC_ATTRIBUTE_BINARY_VERSION                       = 6,
    CU_FUNC_ATTRIBUTE_CACHE_MODE_CA                        = 7,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES        = 8,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT     = 9,
    CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET             = 10,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH               = 11,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT              = 12,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH               = 13,
    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED    = 14,
    CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15,
    CU_FUNC_ATTRIBUTE_MAX
} CUfunction_attribute;

/// Whether a lazily loaded function has been loaded yet.
typedef enum CUfunctionLoadingState_enum {
    CU_FUNCTION_LOADING_STATE_UNLOADED = 0,
    CU_FUNCTION_LOADING_STATE_LOADED   = 1,
    CU_FUNCTION_LOADING_STATE_MAX
} CUfunctionLoadingState;

/// Eager or lazy module loading.
typedef enum CUmoduleLoadingMode_enum {
    CU_MODULE_EAGER_LOADING = 0x1,
    CU_MODULE_LAZY_LOADING  = 0x2
} CUmoduleLoadingMode;

/// Options accepted by cuLibraryLoadData / cuLibraryLoadFromFile.
typedef enum CUlibraryOption_enum {
    CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE = 0,
    CU_LIBRARY_BINARY_IS_PRESERVED                    = 1,
    CU_LIBRARY_NUM_OPTIONS
} CUlibraryOption;

/// Flags for the occupancy calculator.
typedef enum CUoccupancy_flags_enum {
    CU_OCCUPANCY_DEFAULT                  = 0x0,
    CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE = 0x1
} CUoccupancy_flags;

/// Options for the JIT compiler and linker.
typedef enum CUjit_option_enum {
    CU_JIT_MAX_REGISTERS                    = 0,
    CU_JIT_THREADS_PER_BLOCK                = 1,
    CU_JIT_WALL_TIME                        = 2,
    CU_JIT_INFO_LOG_BUFFER                  = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES       = 4,
    CU_JIT_ERROR_LOG_BUFFER                 = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES      = 6,
    CU_JIT_OPTIMIZATION_LEVEL               = 7,
    CU_JIT_TARGET_FROM_CUCONTEXT            = 8,
    CU_JIT_TARGET                           = 9,
    CU_JIT_FALLBACK_STRATEGY                = 10,
    CU_JIT_GENERATE_DEBUG_INFO              = 11,
    CU_JIT_LOG_VERBOSE                      = 12,
    CU_JIT_GENERATE_LINE_INFO               = 13,
    CU_JIT_CACHE_MODE                       = 14,
    CU_JIT_NEW_SM3X_OPT                     = 15,
    CU_JIT_FAST_COMPILE                     = 16,
    CU_JIT_GLOBAL_SYMBOL_NAMES              = 17,
    CU_JIT_GLOBAL_SYMBOL_ADDRESSES          = 18,
    CU_JIT_GLOBAL_SYMBOL_COUNT              = 19,
    CU_JIT_LTO                              = 20,
    CU_JIT_FTZ                              = 21,
    CU_JIT_PREC_DIV                         = 22,
    CU_JIT_PREC_SQRT                        = 23,
    CU_JIT_FMA                              = 24,
    CU_JIT_REFERENCED_KERNEL_NAMES          = 25,
    CU_JIT_REFERENCED_KERNEL_COUNT          = 26,
    CU_JIT_REFERENCED_VARIABLE_NAMES        = 27,
    CU_JIT_REFERENCED_VARIABLE_COUNT        = 28,
    CU_JIT_OPTIMIZE_UNUSED_DEVICE_VARIABLES = 29,
    CU_JIT_POSITION_INDEPENDENT_CODE        = 30,
    CU_JIT_MIN_CTA_PER_SM                   = 31,
    CU_JIT_MAX_THREADS_PER_BLOCK            = 32,
    CU_JIT_OVERRIDE_DIRECTIVE_VALUES        = 33,
    CU_JIT_SPLIT_COMPILE                    = 34,
    CU_JIT_NUM_OPTIONS
} CUjit_option;

/// Virtual/real architecture targets for JIT compilation.
typedef enum CUjit_target_enum {
    CU_TARGET_COMPUTE_30   = 30,
    CU_TARGET_COMPUTE_32   = 32,
    CU_TARGET_COMPUTE_35   = 35,
    CU_TARGET_COMPUTE_37   = 37,
    CU_TARGET_COMPUTE_50   = 50,
    CU_TARGET_COMPUTE_52   = 52,
    CU_TARGET_COMPUTE_53   = 53,
    CU_TARGET_COMPUTE_60   = 60,
    CU_TARGET_COMPUTE_61   = 61,
    CU_TARGET_COMPUTE_62   = 62,
    CU_TARGET_COMPUTE_70   = 70,
    CU_TARGET_COMPUTE_72   = 72,
    CU_TARGET_COMPUTE_75   = 75,
    CU_TARGET_COMPUTE_80   = 80,
    CU_TARGET_COMPUTE_86   = 86,
    CU_TARGET_COMPUTE_87   = 87,
    CU_TARGET_COMPUTE_89   = 89,
    CU_TARGET_COMPUTE_90   = 90,
    CU_TARGET_COMPUTE_100  = 100,
    CU_TARGET_COMPUTE_110  = 110,
    CU_TARGET_COMPUTE_103  = 103,
    CU_TARGET_COMPUTE_120  = 120,
    CU_TARGET_COMPUTE_121  = 121,
    CU_TARGET_COMPUTE_90A  = CU_COMPUTE_ACCELERATED_TARGET_BASE + CU_TARGET_COMPUTE_90,
    CU_TARGET_COMPUTE_100A = CU_COMPUTE_ACCELERATED_TARGET_BASE + CU_TARGET_COMPUTE_100,
    CU_TARGET_COMPUTE_110A = CU_COMPUTE_ACCELERATED_TARGET_BASE + CU_TARGET_COMPUTE_110,
    CU_TARGET_COMPUTE_103A = CU_COMPUTE_ACCELERATED_TARGET_BASE + CU_TARGET_COMPUTE_103,
    CU_TARGET_COMPUTE_120A = CU_COMPUTE_ACCELERATED_TARGET_BASE + CU_TARGET_COMPUTE_120,
    CU_TARGET_COMPUTE_121A = CU_COMPUTE_ACCELERATED_TARGET_BASE + CU_TARGET_COMPUTE_121,
    CU_TARGET_COMPUTE_100F = CU_COMPUTE_FAMILY_TARGET_BASE + CU_TARGET_COMPUTE_100,
    CU_TARGET_COMPUTE_110F = CU_COMPUTE_FAMILY_TARGET_BASE + CU_TARGET_COMPUTE_110,
    CU_TARGET_COMPUTE_103F = CU_COMPUTE_FAMILY_TARGET_BASE + CU_TARGET_COMPUTE_103,
    CU_TARGET_COMPUTE_120F = CU_COMPUTE_FAMILY_TARGET_BASE + CU_TARGET_COMPUTE_120,
    CU_TARGET_COMPUTE_121F = CU_COMPUTE_FAMILY_TARGET_BASE + CU_TARGET_COMPUTE_121
} CUjit_target;

/// What to load when both PTX and a binary match.
typedef enum CUjit_fallback_enum {
    CU_PREFER_PTX    = 0,
    CU_PREFER_BINARY
} CUjit_fallback;

/// Global-memory caching preference for JIT-compiled code.
typedef enum CUjit_cacheMode_enum {
    CU_JIT_CACHE_OPTION_NONE = 0,
    CU_JIT_CACHE_OPTION_CG,
    CU_JIT_CACHE_OPTION_CA
} CUjit_cacheMode;

/// Kinds of input given to the linker.
typedef enum CUjitInputType_enum {
    CU_JIT_INPUT_CUBIN     = 0,
    CU_JIT_INPUT_PTX       = 1,
    CU_JIT_INPUT_FATBINARY = 2,
    CU_JIT_INPUT_OBJECT    = 3,
    CU_JIT_INPUT_LIBRARY   = 4,
    CU_JIT_INPUT_NVVM      = 5,
    CU_JIT_NUM_INPUT_TYPES = 6
} CUjitInputType;
/// Search flags for cuGetProcAddress.
typedef enum CUdriverProcAddress_flags_enum {
    CU_GET_PROC_ADDRESS_DEFAULT                   = 0,
    CU_GET_PROC_ADDRESS_LEGACY_STREAM             = 1 << 0,
    CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 1 << 1
} CUdriverProcAddress_flags;

/// Detailed outcome of cuGetProcAddress.
typedef enum CUdriverProcAddressQueryResult_enum {
    CU_GET_PROC_ADDRESS_SUCCESS                = 0,
    CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND       = 1,
    CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2
} CUdriverProcAddressQueryResult;

/// Cache behaviour for accesses inside/outside an access policy window.
typedef enum CUaccessProperty_enum {
    CU_ACCESS_PROPERTY_NORMAL     = 0,
    CU_ACCESS_PROPERTY_STREAMING  = 1,
    CU_ACCESS_PROPERTY_PERSISTING = 2
} CUaccessProperty;

/// How the host waits on a stream.
typedef enum CUsynchronizationPolicy_enum {
    CU_SYNC_POLICY_AUTO          = 1,
    CU_SYNC_POLICY_SPIN          = 2,
    CU_SYNC_POLICY_YIELD         = 3,
    CU_SYNC_POLICY_BLOCKING_SYNC = 4
} CUsynchronizationPolicy;

/// Thread block cluster scheduling preference.
typedef enum CUclusterSchedulingPolicy_enum {
    CU_CLUSTER_SCHEDULING_POLICY_DEFAULT        = 0,
    CU_CLUSTER_SCHEDULING_POLICY_SPREAD         = 1,
    CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING = 2
} CUclusterSchedulingPolicy;

/// Memory synchronization domains of a launch.
typedef enum CUlaunchMemSyncDomain_enum {
    CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT = 0,
    CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE  = 1
} CUlaunchMemSyncDomain;

/// Identifiers of launch / stream / kernel-node attributes.
typedef enum CUlaunchAttributeID_enum {
    CU_LAUNCH_ATTRIBUTE_IGNORE                               = 0,
    CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW                 = 1,
    CU_LAUNCH_ATTRIBUTE_COOPERATIVE                          = 2,
    CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY               = 3,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION                    = 4,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION    = 6,
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT                   = 7,
    CU_LAUNCH_ATTRIBUTE_PRIORITY                             = 8,
    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP                  = 9,
    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN                      = 10,
    CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION          = 11,
    CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT              = 12,
    CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE         = 13,
    CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT     = 14,
    CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING       = 16
} CUlaunchAttributeID;

/// Capture state of a stream.
typedef enum CUstreamCaptureStatus_enum {
    CU_STREAM_CAPTURE_STATUS_NONE        = 0,
    CU_STREAM_CAPTURE_STATUS_ACTIVE      = 1,
    CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2
} CUstreamCaptureStatus;

/// Which unsafe API calls are prohibited while capturing.
typedef enum CUstreamCaptureMode_enum {
    CU_STREAM_CAPTURE_MODE_GLOBAL       = 0,
    CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
    CU_STREAM_CAPTURE_MODE_RELAXED      = 2
} CUstreamCaptureMode;

/// Comparison used by cuStreamWaitValue32/64.
typedef enum CUstreamWaitValue_flags_enum {
    CU_STREAM_WAIT_VALUE_GEQ   = 0x0,
    CU_STREAM_WAIT_VALUE_EQ    = 0x1,
    CU_STREAM_WAIT_VALUE_AND   = 0x2,
    CU_STREAM_WAIT_VALUE_NOR   = 0x3,
    CU_STREAM_WAIT_VALUE_FLUSH = 1 << 30
} CUstreamWaitValue_flags;

/// Flags for cuStreamWriteValue32/64.
typedef enum CUstreamWriteValue_flags_enum {
    CU_STREAM_WRITE_VALUE_DEFAULT           = 0x0,
    CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER = 0x1
} CUstreamWriteValue_flags;

/// Operation kinds in cuStreamBatchMemOp.
typedef enum CUstreamBatchMemOpType_enum {
    CU_STREAM_MEM_OP_WAIT_VALUE_32       = 1,
    CU_STREAM_MEM_OP_WRITE_VALUE_32      = 2,
    CU_STREAM_MEM_OP_WAIT_VALUE_64       = 4,
    CU_STREAM_MEM_OP_WRITE_VALUE_64      = 5,
    CU_STREAM_MEM_OP_BARRIER             = 6,
    CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES = 3
} CUstreamBatchMemOpType;

/// Scope of a batched memory barrier.
typedef enum CUstreamMemoryBarrier_flags_enum {
    CU_STREAM_MEMORY_BARRIER_TYPE_SYS = 0x0,
    CU_STREAM_MEMORY_BARRIER_TYPE_GPU = 0x1
} CUstreamMemoryBarrier_flags;

/// Flags for cuStreamUpdateCaptureDependencies.
typedef enum CUstreamUpdateCaptureDependencies_flags_enum {
    CU_STREAM_ADD_CAPTURE_DEPENDENCIES = 0x0,
    CU_STREAM_SET_CAPTURE_DEPENDENCIES = 0x1
} CUstreamUpdateCaptureDependencies_flags;

/// Kinds of asynchronous notification.
typedef enum CUasyncNotificationType_enum {
    CU_ASYNC_NOTIFICATION_TYPE_OVER_BUDGET = 0x1
} CUasyncNotificationType;

/// Flags for registering graphics resources.
typedef enum CUgraphicsRegisterFlags_enum {
    CU_GRAPHICS_REGISTER_FLAGS_NONE           = 0x00,
    CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY      = 0x01,
    CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD  = 0x02,
    CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST   = 0x04,
    CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER = 0x08
} CUgraphicsRegisterFlags;

/// Flags for mapping graphics resources.
typedef enum CUgraphicsMapResourceFlags_enum {
    CU_GRAPHICS_MAP_RESOURCE_FLAGS_NONE          = 0x00,
    CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY     = 0x01,
    CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD = 0x02
} CUgraphicsMapResourceFlags;

/// Kinds of conditional graph node.
typedef enum CUgraphConditionalNodeType_enum {
    CU_GRAPH_COND_TYPE_IF     = 0,
    CU_GRAPH_COND_TYPE_WHILE  = 1,
    CU_GRAPH_COND_TYPE_SWITCH = 2
} CUgraphConditionalNodeType;

/// Graph node kinds.
typedef enum CUgraphNodeType_enum {
    CU_GRAPH_NODE_TYPE_KERNEL           = 0,
    CU_GRAPH_NODE_TYPE_MEMCPY           = 1,
    CU_GRAPH_NODE_TYPE_MEMSET           = 2,
    CU_GRAPH_NODE_TYPE_HOST             = 3,
    CU_GRAPH_NODE_TYPE_GRAPH            = 4,
    CU_GRAPH_NODE_TYPE_EMPTY            = 5,
    CU_GRAPH_NODE_TYPE_WAIT_EVENT       = 6,
    CU_GRAPH_NODE_TYPE_EVENT_RECORD     = 7,
    CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL = 8,
    CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT   = 9,
    CU_GRAPH_NODE_TYPE_MEM_ALLOC        = 10,
    CU_GRAPH_NODE_TYPE_MEM_FREE         = 11,
    CU_GRAPH_NODE_TYPE_BATCH_MEM_OP     = 12,
    CU_GRAPH_NODE_TYPE_CONDITIONAL      = 13
} CUgraphNodeType;

/// Kinds of graph edge.
typedef enum CUgraphDependencyType_enum {
    CU_GRAPH_DEPENDENCY_TYPE_DEFAULT      = 0,
    CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC = 1
} CUgraphDependencyType;

/// Result of graph instantiation.
typedef enum CUgraphInstantiateResult_enum {
    CUDA_GRAPH_INSTANTIATE_SUCCESS                      = 0,
    CUDA_GRAPH_INSTANTIATE_ERROR                        = 1,
    CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE            = 2,
    CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED = 3,
    CUDA_GRAPH_INSTANTIATE_MULTIPLE_CTXS_NOT_SUPPORTED  = 4,
    CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED    = 5
} CUgraphInstantiateResult;

/// Result of cuGraphExecUpdate.
typedef enum CUgraphExecUpdateResult_enum {
    CU_GRAPH_EXEC_UPDATE_SUCCESS                           = 0x0,
    CU_GRAPH_EXEC_UPDATE_ERROR                             = 0x1,
    CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED            = 0x2,
    CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED           = 0x3,
    CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED            = 0x4,
    CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED          = 0x5,
    CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED               = 0x6,
    CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE = 0x7,
    CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED          = 0x8
} CUgraphExecUpdateResult;

/// Graph memory attributes (cuDeviceGetGraphMemAttribute).
typedef enum CUgraphMem_attribute_enum {
    CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT,
    CU_GRAPH_MEM_ATTR_USED_MEM_HIGH,
    CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT,
    CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH
} CUgraphMem_attribute;

/// How a child graph node owns its graph.
typedef enum CUgraphChildGraphNodeOwnership_enum {
    CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE = 0,
    CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE  = 1
} CUgraphChildGraphNodeOwnership;

/// Detail selection for cuGraphDebugDotPrint.
typedef enum CUgraphDebugDot_flags_enum {
    CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE                      = 1 << 0,
    CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES                = 1 << 1,
    CU_GRAPH_DEBUG_DOT_FLAGS_KERNEL_NODE_PARAMS           = 1 << 2,
    CU_GRAPH_DEBUG_DOT_FLAGS_MEMCPY_NODE_PARAMS           = 1 << 3,
    CU_GRAPH_DEBUG_DOT_FLAGS_MEMSET_NODE_PARAMS           = 1 << 4,
    CU_GRAPH_DEBUG_DOT_FLAGS_HOST_NODE_PARAMS             = 1 << 5,
    CU_GRAPH_DEBUG_DOT_FLAGS_EVENT_NODE_PARAMS            = 1 << 6,
    CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_SIGNAL_NODE_PARAMS = 1 << 7,
    CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_WAIT_NODE_PARAMS   = 1 << 8,
    CU_GRAPH_DEBUG_DOT_FLAGS_KERNEL_NODE_ATTRIBUTES       = 1 << 9,
    CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES                      = 1 << 10,
    CU_GRAPH_DEBUG_DOT_FLAGS_MEM_ALLOC_NODE_PARAMS        = 1 << 11,
    CU_GRAPH_DEBUG_DOT_FLAGS_MEM_FREE_NODE_PARAMS         = 1 << 12,
    CU_GRAPH_DEBUG_DOT_FLAGS_BATCH_MEM_OP_NODE_PARAMS     = 1 << 13,
    CU_GRAPH_DEBUG_DOT_FLAGS_EXTRA_TOPO_INFO              = 1 << 14,
    CU_GRAPH_DEBUG_DOT_FLAGS_CONDITIONAL_NODE_PARAMS      = 1 << 15
} CUgraphDebugDot_flags;

/// Flags for cuUserObjectCreate.
typedef enum CUuserObject_flags_enum {
    CU_USER_OBJECT_NO_DESTRUCTOR_SYNC = 1
} CUuserObject_flags;

/// Flags for cuGraphRetainUserObject.
typedef enum CUuserObjectRetain_flags_enum {
    CU_GRAPH_USER_OBJECT_MOVE = 1
} CUuserObjectRetain_flags;

/// Flags for graph instantiation.
typedef enum CUgraphInstantiate_flags_enum {
    CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH = 1,
    CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD              = 2,
    CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH       = 4,
    CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY   = 8
} CUgraphInstantiate_flags;

/// Atomic operations queried with cuDevice*AtomicCapabilities.
typedef enum CUatomicOperation_enum {
    CU_ATOMIC_OPERATION_INTEGER_ADD       = 0,
    CU_ATOMIC_OPERATION_INTEGER_MIN       = 1,
    CU_ATOMIC_OPERATION_INTEGER_MAX       = 2,
    CU_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
    CU_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
    CU_ATOMIC_OPERATION_AND               = 5,
    CU_ATOMIC_OPERATION_OR                = 6,
    CU_ATOMIC_OPERATION_XOR               = 7,
    CU_ATOMIC_OPERATION_EXCHANGE          = 8,
    CU_ATOMIC_OPERATION_CAS               = 9,
    CU_ATOMIC_OPERATION_FLOAT_ADD         = 10,
    CU_ATOMIC_OPERATION_FLOAT_MIN         = 11,
    CU_ATOMIC_OPERATION_FLOAT_MAX         = 12,
    CU_ATOMIC_OPERATION_MAX
} CUatomicOperation;

/// Capability bits reported for atomic operations.
typedef enum CUatomicOperationCapability_enum {
    CU_ATOMIC_CAPABILITY_SIGNED      = 1u << 0,
    CU_ATOMIC_CAPABILITY_UNSIGNED    = 1u << 1,
    CU_ATOMIC_CAPABILITY_REDUCTION   = 1u << 2,
    CU_ATOMIC_CAPABILITY_SCALAR_32   = 1u << 3,
    CU_ATOMIC_CAPABILITY_SCALAR_64   = 1u << 4,
    CU_ATOMIC_CAPABILITY_SCALAR_128  = 1u << 5,
    CU_ATOMIC_CAPABILITY_VECTOR_32x4 = 1u << 6
} CUatomicOperationCapability;

/// Element types of tensor maps.
typedef enum CUtensorMapDataType_enum {
    CU_TENSOR_MAP_DATA_TYPE_UINT8         = 0,
    CU_TENSOR_MAP_DATA_TYPE_UINT16,
    CU_TENSOR_MAP_DATA_TYPE_UINT32,
    CU_TENSOR_MAP_DATA_TYPE_INT32,
    CU_TENSOR_MAP_DATA_TYPE_UINT64,
    CU_TENSOR_MAP_DATA_TYPE_INT64,
    CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
    CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
    CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
    CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
    CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
    CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
    CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
    CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
    CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
    CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B
} CUtensorMapDataType;

/// Interleave layouts of tensor maps.
typedef enum CUtensorMapInterleave_enum {
    CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
    CU_TENSOR_MAP_INTERLEAVE_16B,
    CU_TENSOR_MAP_INTERLEAVE_32B
} CUtensorMapInterleave;

/// Shared-memory swizzle patterns of tensor maps.
typedef enum CUtensorMapSwizzle_enum {
    CU_TENSOR_MAP_SWIZZLE_NONE                  = 0,
    CU_TENSOR_MAP_SWIZZLE_32B,
    CU_TENSOR_MAP_SWIZZLE_64B,
    CU_TENSOR_MAP_SWIZZLE_128B,
    CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B,
    CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
    CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B
} CUtensorMapSwizzle;

/// L2 promotion sizes of tensor maps.
typedef enum CUtensorMapL2promotion_enum {
    CU_TENSOR_MAP_L2_PROMOTION_NONE    = 0,
    CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
    CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
    CU_TENSOR_MAP_L2_PROMOTION_L2_256B
} CUtensorMapL2promotion;

/// Out-of-bounds fill mode of tensor maps.
typedef enum CUtensorMapFloatOOBfill_enum {
    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE                 = 0,
    CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
} CUtensorMapFloatOOBfill;

/// Im2col-wide modes of tensor maps.
typedef enum CUtensorMapIm2ColWideMode_enum {
    CU_TENSOR_MAP_IM2COL_WIDE_MODE_W    = 0,
    CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128
} CUtensorMapIm2ColWideMode;

/// Kinds of external memory handle.
typedef enum CUexternalMemoryHandleType_enum {
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD          = 1,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32       = 2,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT   = 3,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP         = 4,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE     = 5,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE     = 6,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT = 7,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF           = 8,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD          = 9
} CUexternalMemoryHandleType;

/// Kinds of external semaphore handle.
typedef enum CUexternalSemaphoreHandleType_enum {
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD                = 1,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32             = 2,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT         = 3,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE              = 4,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE              = 5,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC                = 6,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX        = 7,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT    = 8,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD    = 9,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32 = 10
} CUexternalSemaphoreHandleType;

/// Shareable handle kinds of VMM allocations and pools.
typedef enum CUmemAllocationHandleType_enum {
    CU_MEM_HANDLE_TYPE_NONE                  = 0x0,
    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 0x1,
    CU_MEM_HANDLE_TYPE_WIN32                 = 0x2,
    CU_MEM_HANDLE_TYPE_WIN32_KMT             = 0x4,
    CU_MEM_HANDLE_TYPE_FABRIC                = 0x8,
    CU_MEM_HANDLE_TYPE_MAX                   = 0x7FFFFFFF
} CUmemAllocationHandleType;

/// Access protection of a mapped range.
typedef enum CUmemAccess_flags_enum {
    CU_MEM_ACCESS_FLAGS_PROT_NONE      = 0x0,
    CU_MEM_ACCESS_FLAGS_PROT_READ      = 0x1,
    CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 0x3,
    CU_MEM_ACCESS_FLAGS_PROT_MAX       = 0x7FFFFFFF
} CUmemAccess_flags;

/// Kinds of memory location.
typedef enum CUmemLocationType_enum {
    CU_MEM_LOCATION_TYPE_INVALID           = 0x0,
    CU_MEM_LOCATION_TYPE_NONE              = 0x0,
    CU_MEM_LOCATION_TYPE_DEVICE            = 0x1,
    CU_MEM_LOCATION_TYPE_HOST              = 0x2,
    CU_MEM_LOCATION_TYPE_HOST_NUMA         = 0x3,
    CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT = 0x4,
    CU_MEM_LOCATION_TYPE_MAX               = 0x7FFFFFFF
} CUmemLocationType;

/// Kinds of VMM allocation.
typedef enum CUmemAllocationType_enum {
    CU_MEM_ALLOCATION_TYPE_INVALID = 0x0,
    CU_MEM_ALLOCATION_TYPE_PINNED  = 0x1,
    CU_MEM_ALLOCATION_TYPE_MANAGED = 0x2,
    CU_MEM_ALLOCATION_TYPE_MAX     = 0x7FFFFFFF
} CUmemAllocationType;

/// Granularity queried by cuMemGetAllocationGranularity.
typedef enum CUmemAllocationGranularity_flags_enum {
    CU_MEM_ALLOC_GRANULARITY_MINIMUM     = 0x0,
    CU_MEM_ALLOC_GRANULARITY_RECOMMENDED = 0x1
} CUmemAllocationGranularity_flags;

/// Handle kinds for cuMemGetHandleForAddressRange.
typedef enum CUmemRangeHandleType_enum {
    CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 0x1,
    CU_MEM_RANGE_HANDLE_TYPE_MAX        = 0x7FFFFFFF
} CUmemRangeHandleType;

/// Flags for cuMemGetHandleForAddressRange.
typedef enum CUmemRangeFlags_enum {
    CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE = 0x1
} CUmemRangeFlags;

/// Subresource kinds of sparse arrays.
typedef enum CUarraySparseSubresourceType_enum {
    CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_SPARSE_LEVEL = 0,
    CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_MIPTAIL      = 1
} CUarraySparseSubresourceType;

/// Map / unmap operation for cuMemMapArrayAsync.
typedef enum CUmemOperationType_enum {
    CU_MEM_OPERATION_TYPE_MAP   = 1,
    CU_MEM_OPERATION_TYPE_UNMAP = 2
} CUmemOperationType;

/// Handle kinds for cuMemMapArrayAsync.
typedef enum CUmemHandleType_enum {
    CU_MEM_HANDLE_TYPE_GENERIC = 0
} CUmemHandleType;

/// Compression kinds of VMM allocations.
typedef enum CUmemAllocationCompType_enum {
    CU_MEM_ALLOCATION_COMP_NONE    = 0x0,
    CU_MEM_ALLOCATION_COMP_GENERIC = 0x1
} CUmemAllocationCompType;

/// Granularity queried by cuMulticastGetGranularity.
typedef enum CUmulticastGranularity_flags_enum {
    CU_MULTICAST_GRANULARITY_MINIMUM     = 0x0,
    CU_MULTICAST_GRANULARITY_RECOMMENDED = 0x1
} CUmulticastGranularity_flags;

/// Memory pool attributes.
typedef enum CUmemPool_attribute_enum {
    CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES   = 1,
    CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC,
    CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES,
    CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
    CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT,
    CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH,
    CU_MEMPOOL_ATTR_USED_MEM_CURRENT,
    CU_MEMPOOL_ATTR_USED_MEM_HIGH
} CUmemPool_attribute;

/// Flags of batched copies.
typedef enum CUmemcpyFlags_enum {
    CU_MEMCPY_FLAG_DEFAULT                     = 0x0,
    CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE = 0x1
} CUmemcpyFlags;

/// When the source of a batched copy may be read.
typedef enum CUmemcpySrcAccessOrder_enum {
    CU_MEMCPY_SRC_ACCESS_ORDER_INVALID         = 0x0,
    CU_MEMCPY_SRC_ACCESS_ORDER_STREAM          = 0x1,
    CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL = 0x2,
    CU_MEMCPY_SRC_ACCESS_ORDER_ANY             = 0x3,
    CU_MEMCPY_SRC_ACCESS_ORDER_MAX             = 0x7FFFFFFF
} CUmemcpySrcAccessOrder;

/// Operand kinds of batched 3D copies.
typedef enum CUmemcpy3DOperandType_enum {
    CU_MEMCPY_OPERAND_TYPE_POINTER = 0x1,
    CU_MEMCPY_OPERAND_TYPE_ARRAY   = 0x2,
    CU_MEMCPY_OPERAND_TYPE_MAX     = 0x7FFFFFFF
} CUmemcpy3DOperandType;

/// Decompression algorithms.
typedef enum CUmemDecompressAlgorithm_enum {
    CU_MEM_DECOMPRESS_UNSUPPORTED       = 0,
    CU_MEM_DECOMPRESS_ALGORITHM_DEFLATE = 1 << 0,
    CU_MEM_DECOMPRESS_ALGORITHM_SNAPPY  = 1 << 1,
    CU_MEM_DECOMPRESS_ALGORITHM_LZ4     = 1 << 2
} CUmemDecompressAlgorithm;

/// Options reported by CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS.
typedef enum CUflushGPUDirectRDMAWritesOptions_enum {
    CU_FLUSH_GPU_DIRECT_RDMA_WRITES_OPTION_HOST   = 1 << 0,
    CU_FLUSH_GPU_DIRECT_RDMA_WRITES_OPTION_MEMOPS = 1 << 1
} CUflushGPUDirectRDMAWritesOptions;

/// Ordering reported by CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING.
typedef enum CUGPUDirectRDMAWritesOrdering_enum {
    CU_GPU_DIRECT_RDMA_WRITES_ORDERING_NONE        = 0,
    CU_GPU_DIRECT_RDMA_WRITES_ORDERING_OWNER       = 100,
    CU_GPU_DIRECT_RDMA_WRITES_ORDERING_ALL_DEVICES = 200
} CUGPUDirectRDMAWritesOrdering;

/// Scope of cuFlushGPUDirectRDMAWrites.
typedef enum CUflushGPUDirectRDMAWritesScope_enum {
    CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER       = 100,
    CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES = 200
} CUflushGPUDirectRDMAWritesScope;

/// Target of cuFlushGPUDirectRDMAWrites.
typedef enum CUflushGPUDirectRDMAWritesTarget_enum {
    CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX = 0
} CUflushGPUDirectRDMAWritesTarget;

/// NUMA configuration of a device.
typedef enum CUdeviceNumaConfig_enum {
    CU_DEVICE_NUMA_CONFIG_NONE      = 0,
    CU_DEVICE_NUMA_CONFIG_NUMA_NODE
} CUdeviceNumaConfig;

/// Checkpoint state of a process.
typedef enum CUprocessState_enum {
    CU_PROCESS_STATE_RUNNING      = 0,
    CU_PROCESS_STATE_LOCKED,
    CU_PROCESS_STATE_CHECKPOINTED,
    CU_PROCESS_STATE_FAILED
} CUprocessState;

/// Coredump attributes.
typedef enum CUcoredumpSettings_enum {
    CU_COREDUMP_ENABLE_ON_EXCEPTION = 1,
    CU_COREDUMP_TRIGGER_HOST,
    CU_COREDUMP_LIGHTWEIGHT,
    CU_COREDUMP_ENABLE_USER_TRIGGER,
    CU_COREDUMP_FILE,
    CU_COREDUMP_PIPE,
    CU_COREDUMP_GENERATION_FLAGS,
    CU_COREDUMP_MAX
} CUcoredumpSettings;

/// What a coredump includes.
typedef enum CUCoredumpGenerationFlags {
    CU_COREDUMP_DEFAULT_FLAGS                = 0,
    CU_COREDUMP_SKIP_NONRELOCATED_ELF_IMAGES = (1 << 0),
    CU_COREDUMP_SKIP_GLOBAL_MEMORY           = (1 << 1),
    CU_COREDUMP_SKIP_SHARED_MEMORY           = (1 << 2),
    CU_COREDUMP_SKIP_LOCAL_MEMORY            = (1 << 3),
    CU_COREDUMP_SKIP_ABORT                   = (1 << 4),
    CU_COREDUMP_SKIP_CONSTBANK_MEMORY        = (1 << 5),
    CU_COREDUMP_LIGHTWEIGHT_FLAGS            = CU_COREDUMP_SKIP_NONRELOCATED_ELF_IMAGES | CU_COREDUMP_SKIP_GLOBAL_MEMORY | CU_COREDUMP_SKIP_SHARED_MEMORY | CU_COREDUMP_SKIP_LOCAL_MEMORY | CU_COREDUMP_SKIP_CONSTBANK_MEMORY
} CUCoredumpGenerationFlags;

/// Flags for cuGreenCtxCreate.
typedef enum {
    CU_GREEN_CTX_DEFAULT_STREAM = 0x1
} CUgreenCtxCreate_flags;

/// Flags for cuDevSmResourceSplitByCount.
typedef enum {
    CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING     = 0x1,
    CU_DEV_SM_RESOURCE_SPLIT_MAX_POTENTIAL_CLUSTER_SIZE = 0x2
} CUdevSmResourceSplit_flags;

/// Kinds of device resource.
typedef enum {
    CU_DEV_RESOURCE_TYPE_INVALID = 0,
    CU_DEV_RESOURCE_TYPE_SM      = 1
} CUdevResourceType;

/// Severity of driver log messages.
typedef enum CUlogLevel_enum {
    CU_LOG_LEVEL_ERROR   = 0,
    CU_LOG_LEVEL_WARNING = 1
} CUlogLevel;

/* ------------------------------------------------------------------------ */
/* Flag and sentinel constants                                              */
/* ------------------------------------------------------------------------ */

/// cuMemHostAlloc flags.
#define CU_MEMHOSTALLOC_PORTABLE      0x01 ///< pinned for all contexts
#define CU_MEMHOSTALLOC_DEVICEMAP     0x02 ///< mapped into device space
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04 ///< write-combined memory

/// cuMemHostRegister flags.
#define CU_MEMHOSTREGISTER_PORTABLE  0x01 ///< pinned for all contexts
#define CU_MEMHOSTREGISTER_DEVICEMAP 0x02 ///< mapped into device space
#define CU_MEMHOSTREGISTER_IOMEMORY  0x04 ///< range is I/O memory
#define CU_MEMHOSTREGISTER_READ_ONLY 0x08 ///< device only reads the range

/// Sparse array property flag: a single mip tail for all layers.
#define CU_ARRAY_SPARSE_PROPERTIES_SINGLE_MIPTAIL 0x1

/// Number of 64-bit words in an encoded tensor map.
#define CU_TENSOR_MAP_NUM_QWORDS 16

/// External memory: the handle is a dedicated allocation.
#define CUDA_EXTERNAL_MEMORY_DEDICATED 0x1
/// External semaphore signal/wait: skip NvSciBuf memory synchronization.
#define CUDA_EXTERNAL_SEMAPHORE_SIGNAL_SKIP_NVSCIBUF_MEMSYNC 0x01
#define CUDA_EXTERNAL_SEMAPHORE_WAIT_SKIP_NVSCIBUF_MEMSYNC   0x02
/// cuDeviceGetNvSciSyncAttributes direction flags.
#define CUDA_NVSCISYNC_ATTR_SIGNAL 0x1
#define CUDA_NVSCISYNC_ATTR_WAIT   0x2

/// VMM allocation / pool usage flags.
#define CU_MEM_CREATE_USAGE_TILE_POOL          0x1
#define CU_MEM_CREATE_USAGE_HW_DECOMPRESS      0x2
#define CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS 0x2

/// Conditional node handle: apply the default value at every launch.
#define CU_GRAPH_COND_ASSIGN_DEFAULT 0x1

/// Output ports of kernel nodes used by programmatic dependencies.
#define CU_GRAPH_KERNEL_NODE_PORT_DEFAULT      0
#define CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC 1
#define CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER 2

/// Multi-device cooperative launch flags.
#define CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC  0x01
#define CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC 0x02

/// CUDA_ARRAY3D_DESCRIPTOR::Flags.
#define CUDA_ARRAY3D_LAYERED             0x01  ///< layered array
#define CUDA_ARRAY3D_2DARRAY             0x01  ///< old name of LAYERED
#define CUDA_ARRAY3D_SURFACE_LDST        0x02  ///< usable by surfaces
#define CUDA_ARRAY3D_CUBEMAP             0x04  ///< cubemap (6 or 6N layers)
#define CUDA_ARRAY3D_TEXTURE_GATHER      0x08  ///< usable by tex gather
#define CUDA_ARRAY3D_DEPTH_TEXTURE       0x10  ///< depth texture
#define CUDA_ARRAY3D_COLOR_ATTACHMENT    0x20  ///< graphics color target
#define CUDA_ARRAY3D_SPARSE              0x40  ///< sparse array
#define CUDA_ARRAY3D_DEFERRED_MAPPING    0x80  ///< backing memory bound later
#define CUDA_ARRAY3D_VIDEO_ENCODE_DECODE 0x100 ///< video codec surface

/// cuTexRefSetArray flag: override the texture format with the array's.
#define CU_TRSA_OVERRIDE_FORMAT 0x01

/// cuTexRefSetFlags flags.
#define CU_TRSF_READ_AS_INTEGER                0x01
#define CU_TRSF_NORMALIZED_COORDINATES         0x02
#define CU_TRSF_SRGB                           0x10
#define CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION 0x20
#define CU_TRSF_SEAMLESS_CUBEMAP               0x40

/// Launch flag: the kernel requires the exact block dimensions.
#define CU_LAUNCH_KERNEL_REQUIRED_BLOCK_DIM 1

/// Markers inside the `extra` array of cuLaunchKernel.
#define CU_LAUNCH_PARAM_END_AS_INT            0x00
#define CU_LAUNCH_PARAM_END                   ((void *)CU_LAUNCH_PARAM_END_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_POINTER        ((void *)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT    0x02
#define CU_LAUNCH_PARAM_BUFFER_SIZE           ((void *)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)

/// cuParamSetTexRef: the only accepted texture unit.
#define CU_PARAM_TR_DEFAULT -1

/// Pseudo device ordinals (used for managed-memory hints).
#define CU_DEVICE_CPU     ((CUdevice)-1)
#define CU_DEVICE_INVALID ((CUdevice)-2)

/// Launch attributes also act as kernel-node and stream attributes.
#define CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW        CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW
#define CU_KERNEL_NODE_ATTRIBUTE_COOPERATIVE                 CU_LAUNCH_ATTRIBUTE_COOPERATIVE
#define CU_KERNEL_NODE_ATTRIBUTE_CLUSTER_DIMENSION           CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
#define CU_KERNEL_NODE_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE \
    CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE
#define CU_KERNEL_NODE_ATTRIBUTE_PRIORITY                    CU_LAUNCH_ATTRIBUTE_PRIORITY
#define CU_KERNEL_NODE_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP         CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP
#define CU_KERNEL_NODE_ATTRIBUTE_MEM_SYNC_DOMAIN             CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN
#define CU_KERNEL_NODE_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION
#define CU_KERNEL_NODE_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE \
    CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE
#define CU_KERNEL_NODE_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT \
    CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
#define CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW   CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW
#define CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY
#define CU_STREAM_ATTRIBUTE_PRIORITY               CU_LAUNCH_ATTRIBUTE_PRIORITY
#define CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP
#define CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN        CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN

/// Version of the CUdevResource layout.
#define RESOURCE_ABI_VERSION 1
/// Bytes reserved for resource-specific data in CUdevResource.
#define RESOURCE_ABI_EXTERNAL_BYTES 48

/* ------------------------------------------------------------------------ */
/* Callback types                                                           */
/* ------------------------------------------------------------------------ */

/// Host function enqueued with cuLaunchHostFunc or a host graph node.
typedef void(CUDA_CB *CUhostFn)(void *userData);

/// Stream callback registered with cuStreamAddCallback.
typedef void(CUDA_CB *CUstreamCallback)(CUstream hStream, CUresult status, void *userData);

/// Maps a block size to the dynamic shared memory it needs (occupancy API).
typedef size_t(CUDA_CB *CUoccupancyB2DSize)(int blockSize);

/// Driver log callback.
typedef void(CUDA_CB *CUlogsCallback)(void *data, CUlogLevel logLevel, char *message, size_t length);

/* ------------------------------------------------------------------------ */
/* Device, context and launch structures                                    */
/* ------------------------------------------------------------------------ */

/// Legacy device properties (cuDeviceGetProperties).
typedef struct CUdevprop_st {
    int maxThreadsPerBlock;  ///< threads per block
    int maxThreadsDim[3];    ///< block extent per dimension
    int maxGridSize[3];      ///< grid extent per dimension
    int sharedMemPerBlock;   ///< shared memory per block, bytes
    int totalConstantMemory; ///< constant memory, bytes
    int SIMDWidth;           ///< warp size
    int memPitch;            ///< max copy pitch, bytes
    int regsPerBlock;        ///< 32-bit registers per block
    int clockRate;           ///< clock, kHz
    int textureAlign;        ///< texture base alignment
} CUdevprop_v1;
typedef CUdevprop_v1 CUdevprop;

/// Asynchronous notification delivered to a CUasyncCallback.
typedef struct CUasyncNotificationInfo_st {
    CUasyncNotificationType type;
    union {
        struct {
            unsigned long long bytesOverBudget;
        } overBudget;
    } info;
} CUasyncNotificationInfo;

/// Asynchronous notification callback (cuDeviceRegisterAsyncNotification).
typedef void (*CUasyncCallback)(CUasyncNotificationInfo *info, void *userData,
                                CUasyncCallbackHandle callback);

/// L2 persistence window of a stream, graph node or launch.
typedef struct CUaccessPolicyWindow_st {
    void *base_ptr;            ///< start of the window
    size_t num_bytes;          ///< window size
    float hitRatio;            ///< fraction of accesses that get hitProp
    CUaccessProperty hitProp;  ///< property for hits
    CUaccessProperty missProp; ///< property for misses
} CUaccessPolicyWindow_v1;
typedef CUaccessPolicyWindow_v1 CUaccessPolicyWindow;

/// Mapping of logical to physical memory synchronization domains.
typedef struct CUlaunchMemSyncDomainMap_st {
    unsigned char default_; ///< domain of the default logical domain
    unsigned char remote;   ///< domain of the remote logical domain
} CUlaunchMemSyncDomainMap;

/// Value of a launch / stream / kernel-node attribute (64 bytes).
typedef union CUlaunchAttributeValue_union {
    char pad[64];
    CUaccessPolicyWindow accessPolicyWindow;
    int cooperative;
    CUsynchronizationPolicy syncPolicy;
    struct {
        unsigned int x;
        unsigned int y;
        unsigned int z;
    } clusterDim;
    CUclusterSchedulingPolicy clusterSchedulingPolicyPreference;
    int programmaticStreamSerializationAllowed;
    struct {
        CUevent event;
        int flags;
        int triggerAtBlockStart;
    } programmaticEvent;
    struct {
        CUevent event;
        int flags;
    } launchCompletionEvent;
    int priority;
    CUlaunchMemSyncDomainMap memSyncDomainMap;
    CUlaunchMemSyncDomain memSyncDomain;
    struct {
        unsigned int x;
        unsigned int y;
        unsigned int z;
    } preferredClusterDim;
    struct {
        int deviceUpdatable;
        CUgraphDeviceNode devNode;
    } deviceUpdatableKernelNode;
    unsigned int sharedMemCarveout;
    unsigned int nvlinkUtilCentricScheduling;
} CUlaunchAttributeValue;

/// One attribute of a cuLaunchKernelEx launch.
typedef struct CUlaunchAttribute_st {
    CUlaunchAttributeID id;
    char pad[8 - sizeof(CUlaunchAttributeID)];
    CUlaunchAttributeValue value;
} CUlaunchAttribute;

/// Launch configuration for cuLaunchKernelEx.
typedef struct CUlaunchConfig_st {
    unsigned int gridDimX;
    unsigned int gridDimY;
    unsigned int gridDimZ;
    unsigned int blockDimX;
    unsigned int blockDimY;
    unsigned int blockDimZ;
    unsigned int sharedMemBytes; ///< dynamic shared memory per block
    CUstream hStream;
    CUlaunchAttribute *attrs;    ///< may be NULL if numAttrs == 0
    unsigned int numAttrs;
} CUlaunchConfig;

typedef CUlaunchAttributeID CUkernelNodeAttrID;
typedef CUlaunchAttributeValue CUkernelNodeAttrValue_v1;
typedef CUkernelNodeAttrValue_v1 CUkernelNodeAttrValue;
typedef CUlaunchAttributeID CUstreamAttrID;
typedef CUlaunchAttributeValue CUstreamAttrValue_v1;
typedef CUstreamAttrValue_v1 CUstreamAttrValue;

/// SM-count execution affinity.
typedef struct CUexecAffinitySmCount_st {
    unsigned int val; ///< number of SMs
} CUexecAffinitySmCount_v1;
typedef CUexecAffinitySmCount_v1 CUexecAffinitySmCount;

/// Execution affinity parameter of a context.
typedef struct CUexecAffinityParam_st {
    CUexecAffinityType type;
    union {
        CUexecAffinitySmCount smCount;
    } param;
} CUexecAffinityParam_v1;
typedef CUexecAffinityParam_v1 CUexecAffinityParam;

/// CUDA-in-graphics sharing parameter.
typedef struct CUctxCigParam_st {
    CUcigDataType sharedDataType;
    void *sharedData;
} CUctxCigParam;

/// Optional parameters of cuCtxCreate_v4.
typedef struct CUctxCreateParams_st {
    CUexecAffinityParam *execAffinityParams;
    int numExecAffinityParams;
    CUctxCigParam *cigParams;
} CUctxCreateParams;

/// Host function/data tables of a library (CU_LIBRARY_HOST_UNIVERSAL_...).
typedef struct CUlibraryHostUniversalFunctionAndDataTable_st {
    void *functionTable;
    size_t functionWindowSize;
    void *dataTable;
    size_t dataWindowSize;
} CUlibraryHostUniversalFunctionAndDataTable;

/// Legacy multi-device cooperative launch description.
typedef struct CUDA_LAUNCH_PARAMS_st {
    CUfunction function;
    unsigned int gridDimX;
    unsigned int gridDimY;
    unsigned int gridDimZ;
    unsigned int blockDimX;
    unsigned int blockDimY;
    unsigned int blockDimZ;
    unsigned int sharedMemBytes;
    CUstream hStream;
    void **kernelParams;
} CUDA_LAUNCH_PARAMS_v1;
typedef CUDA_LAUNCH_PARAMS_v1 CUDA_LAUNCH_PARAMS;

/* ------------------------------------------------------------------------ */
/* Memory copy, array and texture structures                                */
/* ------------------------------------------------------------------------ */

/// 2D copy description (cuMemcpy2D and friends).
typedef struct CUDA_MEMCPY2D_st {
    size_t srcXInBytes;         ///< source x offset, bytes
    size_t srcY;                ///< source row
    CUmemorytype srcMemoryType; ///< which of the src* members is used
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    size_t srcPitch;            ///< source row pitch (not for arrays)
    size_t dstXInBytes;
    size_t dstY;
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    size_t dstPitch;
    size_t WidthInBytes;        ///< row width to copy
    size_t Height;              ///< number of rows
} CUDA_MEMCPY2D_v2;
typedef CUDA_MEMCPY2D_v2 CUDA_MEMCPY2D;

/// 3D copy description (cuMemcpy3D and friends).
typedef struct CUDA_MEMCPY3D_st {
    size_t srcXInBytes;
    size_t srcY;
    size_t srcZ;
    size_t srcLOD;              ///< must be 0
    CUmemorytype srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    void *reserved0;            ///< must be NULL
    size_t srcPitch;
    size_t srcHeight;           ///< rows per source slice
    size_t dstXInBytes;
    size_t dstY;
    size_t dstZ;
    size_t dstLOD;              ///< must be 0
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    void *reserved1;            ///< must be NULL
    size_t dstPitch;
    size_t dstHeight;
    size_t WidthInBytes;
    size_t Height;
    size_t Depth;
} CUDA_MEMCPY3D_v2;
typedef CUDA_MEMCPY3D_v2 CUDA_MEMCPY3D;

/// 3D copy between contexts (cuMemcpy3DPeer).
typedef struct CUDA_MEMCPY3D_PEER_st {
    size_t srcXInBytes;
    size_t srcY;
    size_t srcZ;
    size_t srcLOD;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    CUcontext srcContext;       ///< context of the source
    size_t srcPitch;
    size_t srcHeight;
    size_t dstXInBytes;
    size_t dstY;
    size_t dstZ;
    size_t dstLOD;
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    CUcontext dstContext;       ///< context of the destination
    size_t dstPitch;
    size_t dstHeight;
    size_t WidthInBytes;
    size_t Height;
    size_t Depth;
} CUDA_MEMCPY3D_PEER_v1;
typedef CUDA_MEMCPY3D_PEER_v1 CUDA_MEMCPY3D_PEER;

/// 1D/2D array description.
typedef struct CUDA_ARRAY_DESCRIPTOR_st {
    size_t Width;
    size_t Height;
    CUarray_format Format;
    unsigned int NumChannels; ///< 1, 2 or 4
} CUDA_ARRAY_DESCRIPTOR_v2;
typedef CUDA_ARRAY_DESCRIPTOR_v2 CUDA_ARRAY_DESCRIPTOR;

/// 3D (or layered / cubemap) array description.
typedef struct CUDA_ARRAY3D_DESCRIPTOR_st {
    size_t Width;
    size_t Height;
    size_t Depth;
    CUarray_format Format;
    unsigned int NumChannels;
    unsigned int Flags;       ///< CUDA_ARRAY3D_* flags
} CUDA_ARRAY3D_DESCRIPTOR_v2;
typedef CUDA_ARRAY3D_DESCRIPTOR_v2 CUDA_ARRAY3D_DESCRIPTOR;

/// Tiling properties of a sparse array.
typedef struct CUDA_ARRAY_SPARSE_PROPERTIES_st {
    struct {
        unsigned int width;
        unsigned int height;
        unsigned int depth;
    } tileExtent;
    unsigned int miptailFirstLevel;
    unsigned long long miptailSize;
    unsigned int flags;
    unsigned int reserved[4];
} CUDA_ARRAY_SPARSE_PROPERTIES_v1;
typedef CUDA_ARRAY_SPARSE_PROPERTIES_v1 CUDA_ARRAY_SPARSE_PROPERTIES;

/// Backing-memory requirements of a deferred-mapping array.
typedef struct CUDA_ARRAY_MEMORY_REQUIREMENTS_st {
    size_t size;
    size_t alignment;
    unsigned int reserved[4];
} CUDA_ARRAY_MEMORY_REQUIREMENTS_v1;
typedef CUDA_ARRAY_MEMORY_REQUIREMENTS_v1 CUDA_ARRAY_MEMORY_REQUIREMENTS;

/// Resource behind a texture or surface object.
typedef struct CUDA_RESOURCE_DESC_st {
    CUresourcetype resType;
    union {
        struct {
            CUarray hArray;
        } array;
        struct {
            CUmipmappedArray hMipmappedArray;
        } mipmap;
        struct {
            CUdeviceptr devPtr;
            CUarray_format format;
            unsigned int numChannels;
            size_t sizeInBytes;
        } linear;
        struct {
            CUdeviceptr devPtr;
            CUarray_format format;
            unsigned int numChannels;
            size_t width;
            size_t height;
            size_t pitchInBytes;
        } pitch2D;
        struct {
            int reserved[32];
        } reserved;
    } res;
    unsigned int flags; ///< must be 0
} CUDA_RESOURCE_DESC_v1;
typedef CUDA_RESOURCE_DESC_v1 CUDA_RESOURCE_DESC;

/// Sampling state of a texture object.
typedef struct CUDA_TEXTURE_DESC_st {
    CUaddress_mode addressMode[3];
    CUfilter_mode filterMode;
    unsigned int flags;             ///< CU_TRSF_* flags
    unsigned int maxAnisotropy;
    CUfilter_mode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    float borderColor[4];
    int reserved[12];
} CUDA_TEXTURE_DESC_v1;
typedef CUDA_TEXTURE_DESC_v1 CUDA_TEXTURE_DESC;

/// Reinterpretation of a texture object's resource.
typedef struct CUDA_RESOURCE_VIEW_DESC_st {
    CUresourceViewFormat format;
    size_t width;
    size_t height;
    size_t depth;
    unsigned int firstMipmapLevel;
    unsigned int lastMipmapLevel;
    unsigned int firstLayer;
    unsigned int lastLayer;
    unsigned int reserved[16];
} CUDA_RESOURCE_VIEW_DESC_v1;
typedef CUDA_RESOURCE_VIEW_DESC_v1 CUDA_RESOURCE_VIEW_DESC;

/// Opaque encoded tensor map, 128-byte aligned.
typedef struct CUtensorMap_st {
#if defined(__cplusplus) && (__cplusplus >= 201103L)
    alignas(128)
#elif defined(__STDC_VERSION__) && (__STDC_VERSION__ >= 201112L)
    _Alignas(128)
#endif
    cuuint64_t opaque[CU_TENSOR_MAP_NUM_QWORDS];
}
#if !(defined(__cplusplus) && (__cplusplus >= 201103L)) && \
    !(defined(__STDC_VERSION__) && (__STDC_VERSION__ >= 201112L)) && \
    (defined(__GNUC__) || defined(__clang__))
__attribute__((aligned(128)))
#endif
CUtensorMap;

/// Tokens returned for CU_POINTER_ATTRIBUTE_P2P_TOKENS.
typedef struct CUDA_POINTER_ATTRIBUTE_P2P_TOKENS_st {
    unsigned long long p2pToken;
    unsigned int vaSpaceToken;
} CUDA_POINTER_ATTRIBUTE_P2P_TOKENS_v1;
typedef CUDA_POINTER_ATTRIBUTE_P2P_TOKENS_v1 CUDA_POINTER_ATTRIBUTE_P2P_TOKENS;

/* ======================================================================== */
/* Entry points                                                             */
/*                                                                          */
/* Declared under their exported (versioned) symbol names.  Plain names are */
/* mapped onto these at the end of the file.                                */
/* ======================================================================== */

/* --- Errors, initialization, version ----------------------------------- */

/// Static description of an error code (NULL and CUDA_ERROR_INVALID_VALUE
/// for unknown codes).
CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr);
/// Enumerator name of an error code, e.g. "CUDA_ERROR_INVALID_VALUE".
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr);
/// Initializes the driver; Flags must be 0.  Required before any other call.
CUresult CUDAAPI cuInit(unsigned int Flags);
/// Driver API version (same encoding as CUDA_VERSION).
CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);

/* --- Devices ------------------------------------------------------------ */

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);
CUresult CUDAAPI cuDeviceGetCount(int *count);
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult CUDAAPI cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
/// Windows LUID (8 bytes) and node mask; not available on other platforms.
CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev);
CUresult CUDAAPI cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUresult CUDAAPI cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, CUarray_format format,
                                                    unsigned numChannels, CUdevice dev);
CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
CUresult CUDAAPI cuDeviceGetHostAtomicCapabilities(unsigned int *capabilities,
                                                   const CUatomicOperation *operations,
                                                   unsigned int count, CUdevice dev);
CUresult CUDAAPI cuDeviceGetNvSciSyncAttributes(void *nvSciSyncAttrList, CUdevice dev, int flags);
CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool);
CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev);
CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev);
CUresult CUDAAPI cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice dev);
CUresult CUDAAPI cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
                                            CUflushGPUDirectRDMAWritesScope scope);
/// Legacy property query; prefer cuDeviceGetAttribute.
CUresult CUDAAPI cuDeviceGetProperties(CUdevprop *prop, CUdevice dev) CUCPU_DEPRECATED;
/// Legacy compute capability query; prefer cuDeviceGetAttribute.
CUresult CUDAAPI cuDeviceComputeCapability(int *major, int *minor, CUdevice dev) CUCPU_DEPRECATED;
CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId);
CUresult CUDAAPI cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
CUresult CUDAAPI cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev);
CUresult CUDAAPI cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice,
                                         CUdevice dstDevice);
CUresult CUDAAPI cuDeviceGetP2PAtomicCapabilities(unsigned int *capabilities,
                                                  const CUatomicOperation *operations,
                                                  unsigned int count, CUdevice srcDevice,
                                                  CUdevice dstDevice);
CUresult CUDAAPI cuDeviceRegisterAsyncNotification(CUdevice device, CUasyncCallback callbackFunc,
                                                   void *userData, CUasyncCallbackHandle *callback);
CUresult CUDAAPI cuDeviceUnregisterAsyncNotification(CUdevice device, CUasyncCallbackHandle callback);

/* --- Primary contexts --------------------------------------------------- */

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags);
CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active);
CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice dev);

/* --- Contexts ----------------------------------------------------------- */

/// Context creation, 3.2 form.
CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
/// Context creation with execution affinity (11.4 form).
CUresult CUDAAPI cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
                                unsigned int flags, CUdevice dev);
/// Context creation with optional parameters (12.5 form); params may be NULL.
CUresult CUDAAPI cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
                                CUdevice dev);
CUresult CUDAAPI cuCtxDestroy_v2(CUcontext ctx);
CUresult CUDAAPI cuCtxPushCurrent_v2(CUcontext ctx);
CUresult CUDAAPI cuCtxPopCurrent_v2(CUcontext *pctx);
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx);
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx);
CUresult CUDAAPI cuCtxGetDevice(CUdevice *device);
/// Device of ctx, or of the current context when ctx is NULL.
CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx);
CUresult CUDAAPI cuCtxGetFlags(unsigned int *flags);
CUresult CUDAAPI cuCtxSetFlags(unsigned int flags);
CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long *ctxId);
CUresult CUDAAPI cuCtxSynchronize(void);
/// Synchronizes ctx, or the current context when ctx is NULL.
CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext ctx);
CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value);
CUresult CUDAAPI cuCtxGetLimit(size_t *pvalue, CUlimit limit);
CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache *pconfig);
CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config);
CUresult CUDAAPI cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
CUresult CUDAAPI cuCtxResetPersistingL2Cache(void);
CUresult CUDAAPI cuCtxGetExecAffinity(CUexecAffinityParam *pExecAffinity, CUexecAffinityType type);
CUresult CUDAAPI cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent);
CUresult CUDAAPI cuCtxWaitEvent(CUcontext hCtx, CUevent hEvent);
/// Legacy reference counting of contexts.
CUresult CUDAAPI cuCtxAttach(CUcontext *pctx, unsigned int flags) CUCPU_DEPRECATED;
CUresult CUDAAPI cuCtxDetach(CUcontext ctx) CUCPU_DEPRECATED;
/// Bank-size configuration; accepted but without effect.
CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig *pConfig) CUCPU_DEPRECATED;
CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig config) CUCPU_DEPRECATED;
CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags);
CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peerContext);

/* --- Modules and the JIT linker ----------------------------------------- */

CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname);
CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image);
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues);
CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin);
CUresult CUDAAPI cuModuleUnload(CUmodule hmod);
CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode *mode);
CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int *count, CUmodule mod);
CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod);
CUresult CUDAAPI cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);
CUresult CUDAAPI cuModuleGetTexRef(CUtexref *pTexRef, CUmodule hmod, const char *name) CUCPU_DEPRECATED;
CUresult CUDAAPI cuModuleGetSurfRef(CUsurfref *pSurfRef, CUmodule hmod, const char *name) CUCPU_DEPRECATED;

CUresult CUDAAPI cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                 CUlinkState *stateOut);
CUresult CUDAAPI cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size,
                                  const char *name, unsigned int numOptions, CUjit_option *options,
                                  void **optionValues);
CUresult CUDAAPI cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path,
                                  unsigned int numOptions, CUjit_option *options, void **optionValues);
/// Finishes linking; the image stays owned by the link state.
CUresult CUDAAPI cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut);
CUresult CUDAAPI cuLinkDestroy(CUlinkState state);

/* --- Libraries and kernels (context-independent loading) ---------------- */

CUresult CUDAAPI cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                   void **jitOptionsValues, unsigned int numJitOptions,
                                   CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                   unsigned int numLibraryOptions);
CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                                       void **jitOptionsValues, unsigned int numJitOptions,
                                       CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                       unsigned int numLibraryOptions);
CUresult CUDAAPI cuLibraryUnload(CUlibrary library);
CUresult CUDAAPI cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name);
CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib);
CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib);
CUresult CUDAAPI cuLibraryGetModule(CUmodule *pMod, CUlibrary library);
CUresult CUDAAPI cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel);
CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel);
CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name);
CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name);
CUresult CUDAAPI cuLibraryGetUnifiedFunction(void **fptr, CUlibrary library, const char *symbol);
CUresult CUDAAPI cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev);
CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev);
CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev);
CUresult CUDAAPI cuKernelGetName(const char **name, CUkernel hfunc);
CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset,
                                      size_t *paramSize);

/* --- Memory: allocation and host memory --------------------------------- */

CUresult CUDAAPI cuMemGetInfo_v2(size_t *free, size_t *total);
CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);
CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                                    unsigned int ElementSizeBytes);
CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr);
CUresult CUDAAPI cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr);
CUresult CUDAAPI cuMemAllocHost_v2(void **pp, size_t bytesize);
CUresult CUDAAPI cuMemFreeHost(void *p);
CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
CUresult CUDAAPI cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags);
CUresult CUDAAPI cuMemHostGetFlags(unsigned int *pFlags, void *p);
CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags);
CUresult CUDAAPI cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags);
CUresult CUDAAPI cuMemHostUnregister(void *p);

/* --- Inter-process handles ---------------------------------------------- */

CUresult CUDAAPI cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event);
CUresult CUDAAPI cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle);
CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr);
CUresult CUDAAPI cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags);
CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr dptr);

/* --- Memory: copies ----------------------------------------------------- */

/// Copy between any two unified addresses.
CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                              CUcontext srcContext, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                 size_t ByteCount);
CUresult CUDAAPI cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy);
CUresult CUDAAPI cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy);
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                      CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                      CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                      CUstream hStream);
CUresult CUDAAPI cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                      size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                      CUstream hStream);
CUresult CUDAAPI cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);

/* --- Memory: sets ------------------------------------------------------- */

CUresult CUDAAPI cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult CUDAAPI cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUresult CUDAAPI cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUresult CUDAAPI cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                 size_t Height);
CUresult CUDAAPI cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                  size_t Height);
CUresult CUDAAPI cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                  size_t Height);
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                   size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us,
                                    size_t Width, size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                    size_t Height, CUstream hStream);

/* --- Arrays ------------------------------------------------------------- */

CUresult CUDAAPI cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray);
CUresult CUDAAPI cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray);
CUresult CUDAAPI cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties, CUarray array);
CUresult CUDAAPI cuMipmappedArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties,
                                                     CUmipmappedArray mipmap);
CUresult CUDAAPI cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements,
                                              CUarray array, CUdevice device);
CUresult CUDAAPI cuMipmappedArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements,
                                                       CUmipmappedArray mipmap, CUdevice device);
CUresult CUDAAPI cuArrayGetPlane(CUarray *pPlaneArray, CUarray hArray, unsigned int planeIdx);
CUresult CUDAAPI cuArrayDestroy(CUarray hArray);
CUresult CUDAAPI cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray);
CUresult CUDAAPI cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray);
CUresult CUDAAPI cuMipmappedArrayCreate(CUmipmappedArray *pHandle,
                                        const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                        unsigned int numMipmapLevels);
CUresult CUDAAPI cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray,
                                          unsigned int level);
CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray);

/* --- Unified addressing ------------------------------------------------- */

CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr);
CUresult CUDAAPI cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr);
CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes,
                                        void **data, CUdeviceptr ptr);

/* --- Streams ------------------------------------------------------------ */

CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority);
CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int *priority);
CUresult CUDAAPI cuStreamGetDevice(CUstream hStream, CUdevice *device);
CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int *flags);
CUresult CUDAAPI cuStreamGetId(CUstream hStream, unsigned long long *streamId);
CUresult CUDAAPI cuStreamGetCtx(CUstream hStream, CUcontext *pctx);
/// Context of a stream; for green-context streams also the green context.
CUresult CUDAAPI cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx);
CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
                                     unsigned int flags);
CUresult CUDAAPI cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length,
                                        unsigned int flags);
CUresult CUDAAPI cuStreamQuery(CUstream hStream);
CUresult CUDAAPI cuStreamSynchronize(CUstream hStream);
CUresult CUDAAPI cuStreamDestroy_v2(CUstream hStream);
CUresult CUDAAPI cuStreamCopyAttributes(CUstream dst, CUstream src);
CUresult CUDAAPI cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out);
CUresult CUDAAPI cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value);

/* --- Events ------------------------------------------------------------- */

CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags);
CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
CUresult CUDAAPI cuEventQuery(CUevent hEvent);
CUresult CUDAAPI cuEventSynchronize(CUevent hEvent);
CUresult CUDAAPI cuEventDestroy_v2(CUevent hEvent);
/// Milliseconds between two recorded events (pre-12.8 semantics).
CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
/// Milliseconds between two recorded events.
CUresult CUDAAPI cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd);

/* --- Execution control -------------------------------------------------- */

CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc);
CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value);
CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config);
CUresult CUDAAPI cuFuncGetModule(CUmodule *hmod, CUfunction hfunc);
CUresult CUDAAPI cuFuncGetName(const char **name, CUfunction hfunc);
CUresult CUDAAPI cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset,
                                    size_t *paramSize);
CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function);
CUresult CUDAAPI cuFuncLoad(CUfunction function);
CUresult CUDAAPI cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config) CUCPU_DEPRECATED;

/// Launches f on a gridDim x blockDim grid.  Arguments come either from
/// kernelParams (one pointer per parameter) or from the packed buffer
/// described by extra (CU_LAUNCH_PARAM_* markers).
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                void **kernelParams, void **extra);
CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                                  void **extra);
CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                           unsigned int gridDimZ, unsigned int blockDimX,
                                           unsigned int blockDimY, unsigned int blockDimZ,
                                           unsigned int sharedMemBytes, CUstream hStream,
                                           void **kernelParams);
CUresult CUDAAPI cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList,
                                                      unsigned int numDevices,
                                                      unsigned int flags) CUCPU_DEPRECATED;
CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);

/// Pre-4.0 execution control: block shape and parameters are set on the
/// function object, then cuLaunch / cuLaunchGrid start it.
CUresult CUDAAPI cuFuncSetBlockShape(CUfunction hfunc, int x, int y, int z) CUCPU_DEPRECATED;
CUresult CUDAAPI cuFuncSetSharedSize(CUfunction hfunc, unsigned int bytes) CUCPU_DEPRECATED;
CUresult CUDAAPI cuParamSetSize(CUfunction hfunc, unsigned int numbytes) CUCPU_DEPRECATED;
CUresult CUDAAPI cuParamSeti(CUfunction hfunc, int offset, unsigned int value) CUCPU_DEPRECATED;
CUresult CUDAAPI cuParamSetf(CUfunction hfunc, int offset, float value) CUCPU_DEPRECATED;
CUresult CUDAAPI cuParamSetv(CUfunction hfunc, int offset, void *ptr, unsigned int numbytes) CUCPU_DEPRECATED;
CUresult CUDAAPI cuParamSetTexRef(CUfunction hfunc, int texunit, CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuLaunch(CUfunction f) CUCPU_DEPRECATED;
CUresult CUDAAPI cuLaunchGrid(CUfunction f, int grid_width, int grid_height) CUCPU_DEPRECATED;
CUresult CUDAAPI cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height,
                                   CUstream hStream) CUCPU_DEPRECATED;

/* --- Occupancy ---------------------------------------------------------- */

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                             size_t dynamicSMemSize);
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                                      int blockSize,
                                                                      size_t dynamicSMemSize,
                                                                      unsigned int flags);
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                  CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                  size_t dynamicSMemSize, int blockSizeLimit);
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                                           CUfunction func,
                                                           CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                           size_t dynamicSMemSize, int blockSizeLimit,
                                                           unsigned int flags);
CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func,
                                                         int numBlocks, int blockSize);
CUresult CUDAAPI cuOccupancyMaxPotentialClusterSize(int *clusterSize, CUfunction func,
                                                    const CUlaunchConfig *config);
CUresult CUDAAPI cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func,
                                              const CUlaunchConfig *config);

/* --- Texture and surface references (legacy bindless-less API) ---------- */

CUresult CUDAAPI cuTexRefSetArray(CUtexref hTexRef, CUarray hArray, unsigned int Flags) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetMipmappedArray(CUtexref hTexRef, CUmipmappedArray hMipmappedArray,
                                           unsigned int Flags) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetAddress_v2(size_t *ByteOffset, CUtexref hTexRef, CUdeviceptr dptr,
                                       size_t bytes) CUCPU_DEPRECATED;
/// 2D linear binding (4.1 ABI; the _v3 symbol is what new programs call).
CUresult CUDAAPI cuTexRefSetAddress2D_v2(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR *desc,
                                         CUdeviceptr dptr, size_t Pitch) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetAddress2D_v3(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR *desc,
                                         CUdeviceptr dptr, size_t Pitch) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetFormat(CUtexref hTexRef, CUarray_format fmt,
                                   int NumPackedComponents) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetAddressMode(CUtexref hTexRef, int dim, CUaddress_mode am) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetFilterMode(CUtexref hTexRef, CUfilter_mode fm) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetMipmapFilterMode(CUtexref hTexRef, CUfilter_mode fm) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetMipmapLevelBias(CUtexref hTexRef, float bias) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetMipmapLevelClamp(CUtexref hTexRef, float minMipmapLevelClamp,
                                             float maxMipmapLevelClamp) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetMaxAnisotropy(CUtexref hTexRef, unsigned int maxAniso) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetBorderColor(CUtexref hTexRef, float *pBorderColor) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefSetFlags(CUtexref hTexRef, unsigned int Flags) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetAddress_v2(CUdeviceptr *pdptr, CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetArray(CUarray *phArray, CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetMipmappedArray(CUmipmappedArray *phMipmappedArray,
                                           CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetAddressMode(CUaddress_mode *pam, CUtexref hTexRef, int dim) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetFilterMode(CUfilter_mode *pfm, CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetFormat(CUarray_format *pFormat, int *pNumChannels,
                                   CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetMipmapFilterMode(CUfilter_mode *pfm, CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetMipmapLevelBias(float *pbias, CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetMipmapLevelClamp(float *pminMipmapLevelClamp, float *pmaxMipmapLevelClamp,
                                             CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetMaxAnisotropy(int *pmaxAniso, CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetBorderColor(float *pBorderColor, CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefGetFlags(unsigned int *pFlags, CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefCreate(CUtexref *pTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuTexRefDestroy(CUtexref hTexRef) CUCPU_DEPRECATED;
CUresult CUDAAPI cuSurfRefSetArray(CUsurfref hSurfRef, CUarray hArray, unsigned int Flags) CUCPU_DEPRECATED;
CUresult CUDAAPI cuSurfRefGetArray(CUarray *phArray, CUsurfref hSurfRef) CUCPU_DEPRECATED;

/* --- Texture and surface objects ---------------------------------------- */

CUresult CUDAAPI cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                   const CUDA_TEXTURE_DESC *pTexDesc,
                                   const CUDA_RESOURCE_VIEW_DESC *pResViewDesc);
CUresult CUDAAPI cuTexObjectDestroy(CUtexObject texObject);
CUresult CUDAAPI cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject);
CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject);
CUresult CUDAAPI cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc,
                                                CUtexObject texObject);
CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc);
CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject surfObject);
CUresult CUDAAPI cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject);

/* --- Graphics interoperability (API-independent part) ------------------- */

CUresult CUDAAPI cuGraphicsUnregisterResource(CUgraphicsResource resource);
CUresult CUDAAPI cuGraphicsSubResourceGetMappedArray(CUarray *pArray, CUgraphicsResource resource,
                                                     unsigned int arrayIndex, unsigned int mipLevel);
CUresult CUDAAPI cuGraphicsResourceGetMappedMipmappedArray(CUmipmappedArray *pMipmappedArray,
                                                           CUgraphicsResource resource);
CUresult CUDAAPI cuGraphicsResourceGetMappedPointer_v2(CUdeviceptr *pDevPtr, size_t *pSize,
                                                       CUgraphicsResource resource);
CUresult CUDAAPI cuGraphicsResourceSetMapFlags_v2(CUgraphicsResource resource, unsigned int flags);
CUresult CUDAAPI cuGraphicsMapResources(unsigned int count, CUgraphicsResource *resources,
                                        CUstream hStream);
CUresult CUDAAPI cuGraphicsUnmapResources(unsigned int count, CUgraphicsResource *resources,
                                          CUstream hStream);

/* --- Driver entry point lookup ------------------------------------------ */

/// 11.3 form: looks up symbol for API version cudaVersion.
CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags);
/// 12.0 form: additionally reports why a lookup failed (symbolStatus may be NULL).
CUresult CUDAAPI cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult *symbolStatus);
/// Private tables used by the CUDA runtime; cucpu answers CUDA_ERROR_NOT_FOUND
/// for tables it does not know.
CUresult CUDAAPI cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId);

/* --- Profiler control --------------------------------------------------- */

/* Also provided by cudaProfiler.h; whichever header comes first declares
 * them and the shared guard keeps the other from repeating them. */
#ifndef CUCPU_CUDAPROFILER_H
#define CUCPU_CUDAPROFILER_H
/// Output format of the legacy command-line profiler.
typedef enum CUoutput_mode_enum {
    CU_OUT_KEY_VALUE_PAIR = 0x00,
    CU_OUT_CSV = 0x01
} CUoutput_mode;
/// Legacy profiler initialization (no effect in cucpu).
CUresult CUDAAPI cuProfilerInitialize(const char *configFile, const char *outputFile,
                                      CUoutput_mode outputMode) CUCPU_DEPRECATED;
CUresult CUDAAPI cuProfilerStart(void);
CUresult CUDAAPI cuProfilerStop(void);
#endif

/* --- Per-thread default stream variants ---------------------------------- */
/* Same signatures as the functions above; selected by the mappings at the  */
/* end of the file when CUDA_API_PER_THREAD_DEFAULT_STREAM is defined.      */
/* (generated from the declarations above; keep in sync)                    */
CUresult CUDAAPI cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy);
CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy);
CUresult CUDAAPI cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray,
                                      size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                                      size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                      size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount);
CUresult CUDAAPI cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUresult CUDAAPI cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUresult CUDAAPI cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us,
                                       size_t Width, size_t Height);
CUresult CUDAAPI cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                                       size_t Width, size_t Height);
CUresult CUDAAPI cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                                      size_t Width, size_t Height);
CUresult CUDAAPI cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUresult CUDAAPI cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult CUDAAPI cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags);
CUresult CUDAAPI cuEventRecord_ptsz(CUevent hEvent, CUstream hStream);
CUresult CUDAAPI cuGraphicsMapResources_ptsz(unsigned int count, CUgraphicsResource *resources,
                                             CUstream hStream);
CUresult CUDAAPI cuGraphicsUnmapResources_ptsz(unsigned int count, CUgraphicsResource *resources,
                                               CUstream hStream);
CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                unsigned int gridDimZ, unsigned int blockDimX,
                                                unsigned int blockDimY, unsigned int blockDimZ,
                                                unsigned int sharedMemBytes, CUstream hStream,
                                                void **kernelParams);
CUresult CUDAAPI cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData);
CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                                       void **extra);
CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                     unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                     unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                     void **kernelParams, void **extra);
CUresult CUDAAPI cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset,
                                           size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                           CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                           CUstream hStream);
CUresult CUDAAPI cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                           size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                           CUstream hStream);
CUresult CUDAAPI cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                        CUcontext srcContext, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N,
                                       CUstream hStream);
CUresult CUDAAPI cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us,
                                         size_t Width, size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                                         size_t Width, size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                                        size_t Width, size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
CUresult CUDAAPI cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
CUresult CUDAAPI cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData,
                                          unsigned int flags);
CUresult CUDAAPI cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length,
                                             unsigned int flags);
CUresult CUDAAPI cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src);
CUresult CUDAAPI cuStreamGetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr,
                                           CUstreamAttrValue *value_out);
CUresult CUDAAPI cuStreamGetCtx_ptsz(CUstream hStream, CUcontext *pctx);
CUresult CUDAAPI cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx);
CUresult CUDAAPI cuStreamGetDevice_ptsz(CUstream hStream, CUdevice *device);
CUresult CUDAAPI cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags);
CUresult CUDAAPI cuStreamGetId_ptsz(CUstream hStream, unsigned long long *streamId);
CUresult CUDAAPI cuStreamGetPriority_ptsz(CUstream hStream, int *priority);
CUresult CUDAAPI cuStreamQuery_ptsz(CUstream hStream);
CUresult CUDAAPI cuStreamSetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr,
                                           const CUstreamAttrValue *value);
CUresult CUDAAPI cuStreamSynchronize_ptsz(CUstream hStream);
CUresult CUDAAPI cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags);
/* --- End of per-thread default stream variants --------------------------- */

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ======================================================================== */
/* Plain name -> exported symbol mapping                                    */
/*                                                                          */
/* Programs call the plain names; these resolve to the current versions of  */
/* the entry points (and, with CUDA_API_PER_THREAD_DEFAULT_STREAM, to the   */
/* per-thread-stream variants).  The driver itself is compiled with         */
/* __CUDA_API_VERSION_INTERNAL and sees only the real symbol names.         */
/* ======================================================================== */
#if !defined(__CUDA_API_VERSION_INTERNAL)

/* cuCtxCreate: 3 arguments -> cuCtxCreate_v2 (classic form),
 *              4 arguments -> cuCtxCreate_v4 (CUDA 12.5+ form). */
#define CUCPU_SELECT_5TH(a1, a2, a3, a4, a5, ...) a5
#define cuCtxCreate(...) CUCPU_SELECT_5TH(__VA_ARGS__, cuCtxCreate_v4, cuCtxCreate_v2, unused)(__VA_ARGS__)

/* Version bumps that do not depend on the default-stream mode. */
#define cuDeviceTotalMem                   cuDeviceTotalMem_v2
#define cuDeviceGetUuid                    cuDeviceGetUuid_v2
#define cuDevicePrimaryCtxRelease          cuDevicePrimaryCtxRelease_v2
#define cuDevicePrimaryCtxReset            cuDevicePrimaryCtxReset_v2
#define cuDevicePrimaryCtxSetFlags         cuDevicePrimaryCtxSetFlags_v2
#define cuCtxDestroy                       cuCtxDestroy_v2
#define cuCtxPopCurrent                    cuCtxPopCurrent_v2
#define cuCtxPushCurrent                   cuCtxPushCurrent_v2
#define cuModuleGetGlobal                  cuModuleGetGlobal_v2
#define cuLinkCreate                       cuLinkCreate_v2
#define cuLinkAddData                      cuLinkAddData_v2
#define cuLinkAddFile                      cuLinkAddFile_v2
#define cuMemGetInfo                       cuMemGetInfo_v2
#define cuMemAlloc                         cuMemAlloc_v2
#define cuMemAllocPitch                    cuMemAllocPitch_v2
#define cuMemFree                          cuMemFree_v2
#define cuMemGetAddressRange               cuMemGetAddressRange_v2
#define cuMemAllocHost                     cuMemAllocHost_v2
#define cuMemHostGetDevicePointer          cuMemHostGetDevicePointer_v2
#define cuMemHostRegister                  cuMemHostRegister_v2
#define cuMemAdvise                        cuMemAdvise_v2
#define cuIpcOpenMemHandle                 cuIpcOpenMemHandle_v2
#define cuArrayCreate                      cuArrayCreate_v2
#define cuArrayGetDescriptor               cuArrayGetDescriptor_v2
#define cuArray3DCreate                    cuArray3DCreate_v2
#define cuArray3DGetDescriptor             cuArray3DGetDescriptor_v2
#define cuTexRefSetAddress                 cuTexRefSetAddress_v2
#define cuTexRefGetAddress                 cuTexRefGetAddress_v2
#define cuTexRefSetAddress2D               cuTexRefSetAddress2D_v3
#define cuGraphicsResourceGetMappedPointer cuGraphicsResourceGetMappedPointer_v2
#define cuGraphicsResourceSetMapFlags      cuGraphicsResourceSetMapFlags_v2
#define cuStreamDestroy                    cuStreamDestroy_v2
#define cuEventDestroy                     cuEventDestroy_v2
#define cuEventElapsedTime                 cuEventElapsedTime_v2
#define cuGetProcAddress                   cuGetProcAddress_v2
#define cuGraphInstantiate                 cuGraphInstantiateWithFlags
#define cuGraphExecUpdate                  cuGraphExecUpdate_v2
#define cuGraphAddKernelNode               cuGraphAddKernelNode_v2
#define cuGraphKernelNodeGetParams         cuGraphKernelNodeGetParams_v2
#define cuGraphKernelNodeSetParams         cuGraphKernelNodeSetParams_v2
#define cuGraphExecKernelNodeSetParams     cuGraphExecKernelNodeSetParams_v2
#define cuGraphGetEdges                    cuGraphGetEdges_v2
#define cuGraphNodeGetDependencies         cuGraphNodeGetDependencies_v2
#define cuGraphNodeGetDependentNodes       cuGraphNodeGetDependentNodes_v2
#define cuGraphAddDependencies             cuGraphAddDependencies_v2
#define cuGraphRemoveDependencies          cuGraphRemoveDependencies_v2
#define cuGraphAddNode                     cuGraphAddNode_v2

/* Versioned entry points that also have per-thread-stream variants. */
#define cuMemcpyHtoD                       __CUDA_API_PTDS(cuMemcpyHtoD_v2)
#define cuMemcpyDtoH                       __CUDA_API_PTDS(cuMemcpyDtoH_v2)
#define cuMemcpyDtoD                       __CUDA_API_PTDS(cuMemcpyDtoD_v2)
#define cuMemcpyDtoA                       __CUDA_API_PTDS(cuMemcpyDtoA_v2)
#define cuMemcpyAtoD                       __CUDA_API_PTDS(cuMemcpyAtoD_v2)
#define cuMemcpyHtoA                       __CUDA_API_PTDS(cuMemcpyHtoA_v2)
#define cuMemcpyAtoH                       __CUDA_API_PTDS(cuMemcpyAtoH_v2)
#define cuMemcpyAtoA                       __CUDA_API_PTDS(cuMemcpyAtoA_v2)
#define cuMemcpy2D                         __CUDA_API_PTDS(cuMemcpy2D_v2)
#define cuMemcpy2DUnaligned                __CUDA_API_PTDS(cuMemcpy2DUnaligned_v2)
#define cuMemcpy3D                         __CUDA_API_PTDS(cuMemcpy3D_v2)
#define cuMemcpyHtoDAsync                  __CUDA_API_PTSZ(cuMemcpyHtoDAsync_v2)
#define cuMemcpyDtoHAsync                  __CUDA_API_PTSZ(cuMemcpyDtoHAsync_v2)
#define cuMemcpyDtoDAsync                  __CUDA_API_PTSZ(cuMemcpyDtoDAsync_v2)
#define cuMemcpyHtoAAsync                  __CUDA_API_PTSZ(cuMemcpyHtoAAsync_v2)
#define cuMemcpyAtoHAsync                  __CUDA_API_PTSZ(cuMemcpyAtoHAsync_v2)
#define cuMemcpy2DAsync                    __CUDA_API_PTSZ(cuMemcpy2DAsync_v2)
#define cuMemcpy3DAsync                    __CUDA_API_PTSZ(cuMemcpy3DAsync_v2)
#define cuMemcpyBatchAsync                 __CUDA_API_PTSZ(cuMemcpyBatchAsync_v2)
#define cuMemcpy3DBatchAsync               __CUDA_API_PTSZ(cuMemcpy3DBatchAsync_v2)
#define cuMemsetD8                         __CUDA_API_PTDS(cuMemsetD8_v2)
#define cuMemsetD16                        __CUDA_API_PTDS(cuMemsetD16_v2)
#define cuMemsetD32                        __CUDA_API_PTDS(cuMemsetD32_v2)
#define cuMemsetD2D8                       __CUDA_API_PTDS(cuMemsetD2D8_v2)
#define cuMemsetD2D16                      __CUDA_API_PTDS(cuMemsetD2D16_v2)
#define cuMemsetD2D32                      __CUDA_API_PTDS(cuMemsetD2D32_v2)
#define cuMemPrefetchAsync                 __CUDA_API_PTSZ(cuMemPrefetchAsync_v2)
#define cuMemPrefetchBatchAsync            __CUDA_API_PTSZ(cuMemPrefetchBatchAsync)
#define cuMemDiscardBatchAsync             __CUDA_API_PTSZ(cuMemDiscardBatchAsync)
#define cuMemDiscardAndPrefetchBatchAsync  __CUDA_API_PTSZ(cuMemDiscardAndPrefetchBatchAsync)
#define cuMemBatchDecompressAsync          __CUDA_API_PTSZ(cuMemBatchDecompressAsync)
#define cuStreamBeginCapture               __CUDA_API_PTSZ(cuStreamBeginCapture_v2)
#define cuStreamGetCaptureInfo             __CUDA_API_PTSZ(cuStreamGetCaptureInfo_v3)
#define cuStreamUpdateCaptureDependencies  __CUDA_API_PTSZ(cuStreamUpdateCaptureDependencies_v2)
#define cuStreamWriteValue32               __CUDA_API_PTSZ(cuStreamWriteValue32_v2)
#define cuStreamWaitValue32                __CUDA_API_PTSZ(cuStreamWaitValue32_v2)
#define cuStreamWriteValue64               __CUDA_API_PTSZ(cuStreamWriteValue64_v2)
#define cuStreamWaitValue64                __CUDA_API_PTSZ(cuStreamWaitValue64_v2)
#define cuStreamBatchMemOp                 __CUDA_API_PTSZ(cuStreamBatchMemOp_v2)

/* Unversioned entry points that only change name in per-thread mode. */
#if defined(__CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cuMemcpy                        __CUDA_API_PTDS(cuMemcpy)
#define cuMemcpyAsync                   __CUDA_API_PTSZ(cuMemcpyAsync)
#define cuMemcpyPeer                    __CUDA_API_PTDS(cuMemcpyPeer)
#define cuMemcpyPeerAsync               __CUDA_API_PTSZ(cuMemcpyPeerAsync)
#define cuMemcpy3DPeer                  __CUDA_API_PTDS(cuMemcpy3DPeer)
#define cuMemcpy3DPeerAsync             __CUDA_API_PTSZ(cuMemcpy3DPeerAsync)
#define cuMemsetD8Async                 __CUDA_API_PTSZ(cuMemsetD8Async)
#define cuMemsetD16Async                __CUDA_API_PTSZ(cuMemsetD16Async)
#define cuMemsetD32Async                __CUDA_API_PTSZ(cuMemsetD32Async)
#define cuMemsetD2D8Async               __CUDA_API_PTSZ(cuMemsetD2D8Async)
#define cuMemsetD2D16Async              __CUDA_API_PTSZ(cuMemsetD2D16Async)
#define cuMemsetD2D32Async              __CUDA_API_PTSZ(cuMemsetD2D32Async)
#define cuMemMapArrayAsync              __CUDA_API_PTSZ(cuMemMapArrayAsync)
#define cuMemFreeAsync                  __CUDA_API_PTSZ(cuMemFreeAsync)
#define cuMemAllocAsync                 __CUDA_API_PTSZ(cuMemAllocAsync)
#define cuMemAllocFromPoolAsync         __CUDA_API_PTSZ(cuMemAllocFromPoolAsync)
#define cuStreamGetPriority             __CUDA_API_PTSZ(cuStreamGetPriority)
#define cuStreamGetId                   __CUDA_API_PTSZ(cuStreamGetId)
#define cuStreamGetFlags                __CUDA_API_PTSZ(cuStreamGetFlags)
#define cuStreamGetDevice               __CUDA_API_PTSZ(cuStreamGetDevice)
#define cuStreamGetCtx                  __CUDA_API_PTSZ(cuStreamGetCtx)
#define cuStreamGetCtx_v2               __CUDA_API_PTSZ(cuStreamGetCtx_v2)
#define cuStreamWaitEvent               __CUDA_API_PTSZ(cuStreamWaitEvent)
#define cuStreamEndCapture              __CUDA_API_PTSZ(cuStreamEndCapture)
#define cuStreamIsCapturing             __CUDA_API_PTSZ(cuStreamIsCapturing)
#define cuStreamAddCallback             __CUDA_API_PTSZ(cuStreamAddCallback)
#define cuStreamAttachMemAsync          __CUDA_API_PTSZ(cuStreamAttachMemAsync)
#define cuStreamQuery                   __CUDA_API_PTSZ(cuStreamQuery)
#define cuStreamSynchronize             __CUDA_API_PTSZ(cuStreamSynchronize)
#define cuStreamCopyAttributes          __CUDA_API_PTSZ(cuStreamCopyAttributes)
#define cuStreamGetAttribute            __CUDA_API_PTSZ(cuStreamGetAttribute)
#define cuStreamSetAttribute            __CUDA_API_PTSZ(cuStreamSetAttribute)
#define cuStreamBeginCaptureToGraph     __CUDA_API_PTSZ(cuStreamBeginCaptureToGraph)
#define cuEventRecord                   __CUDA_API_PTSZ(cuEventRecord)
#define cuEventRecordWithFlags          __CUDA_API_PTSZ(cuEventRecordWithFlags)
#define cuLaunchKernel                  __CUDA_API_PTSZ(cuLaunchKernel)
#define cuLaunchKernelEx                __CUDA_API_PTSZ(cuLaunchKernelEx)
#define cuLaunchHostFunc                __CUDA_API_PTSZ(cuLaunchHostFunc)
#define cuLaunchCooperativeKernel       __CUDA_API_PTSZ(cuLaunchCooperativeKernel)
#define cuGraphicsMapResources          __CUDA_API_PTSZ(cuGraphicsMapResources)
#define cuGraphicsUnmapResources        __CUDA_API_PTSZ(cuGraphicsUnmapResources)
#define cuSignalExternalSemaphoresAsync __CUDA_API_PTSZ(cuSignalExternalSemaphoresAsync)
#define cuWaitExternalSemaphoresAsync   __CUDA_API_PTSZ(cuWaitExternalSemaphoresAsync)
#define cuGraphInstantiateWithParams    __CUDA_API_PTSZ(cuGraphInstantiateWithParams)
#define cuGraphUpload                   __CUDA_API_PTSZ(cuGraphUpload)
#define cuGraphLaunch                   __CUDA_API_PTSZ(cuGraphLaunch)
#endif /* __CUDA_API_PER_THREAD_DEFAULT_STREAM */

#endif /* !__CUDA_API_VERSION_INTERNAL */

#endif /* CUCPU_CUDA_H */
