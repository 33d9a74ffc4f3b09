// src/runtime/cuda_driver_table.h -- X-macro list of every libcuda entry point treadle calls
//
// Each line is TREADLE_CU_ENTRY(symbol, required, (parameter types)): `symbol` is the name the
// driver exports (the versioned `_v2` name where one exists, which is what <cuda.h> maps the
// plain name to), and every entry returns CUresult. A missing required entry makes the driver
// unusable; a missing optional one (stream-ordered allocation, CUDA 11.2+; graph capture with
// instantiation flags, CUDA 11.4+) leaves its pointer null and the feature off. The includer
// defines TREADLE_CU_ENTRY and the types of cuda_driver.h; this file has no include guard on
// purpose.

// Errors and initialisation
TREADLE_CU_ENTRY(cuGetErrorName, true, (CUresult, const char**))
TREADLE_CU_ENTRY(cuGetErrorString, true, (CUresult, const char**))
TREADLE_CU_ENTRY(cuInit, true, (unsigned int))
TREADLE_CU_ENTRY(cuDriverGetVersion, true, (int*))

// Devices
TREADLE_CU_ENTRY(cuDeviceGetCount, true, (int*))
TREADLE_CU_ENTRY(cuDeviceGet, true, (CUdevice*, int))
TREADLE_CU_ENTRY(cuDeviceGetName, true, (char*, int, CUdevice))
TREADLE_CU_ENTRY(cuDeviceGetAttribute, true, (int*, int, CUdevice))
TREADLE_CU_ENTRY(cuDeviceTotalMem_v2, true, (size_t*, CUdevice))

// Contexts
TREADLE_CU_ENTRY(cuDevicePrimaryCtxRetain, true, (CUcontext*, CUdevice))
TREADLE_CU_ENTRY(cuCtxSetCurrent, true, (CUcontext))
TREADLE_CU_ENTRY(cuCtxGetCurrent, true, (CUcontext*))
TREADLE_CU_ENTRY(cuCtxSynchronize, true, ())
TREADLE_CU_ENTRY(cuCtxGetStreamPriorityRange, true, (int*, int*))

// Memory
TREADLE_CU_ENTRY(cuMemGetInfo_v2, true, (size_t*, size_t*))
TREADLE_CU_ENTRY(cuMemAlloc_v2, true, (CUdeviceptr*, size_t))
TREADLE_CU_ENTRY(cuMemFree_v2, true, (CUdeviceptr))
TREADLE_CU_ENTRY(cuMemHostAlloc, true, (void**, size_t, unsigned int))
TREADLE_CU_ENTRY(cuMemFreeHost, true, (void*))
TREADLE_CU_ENTRY(cuMemAllocAsync, false, (CUdeviceptr*, size_t, CUstream))
TREADLE_CU_ENTRY(cuMemFreeAsync, false, (CUdeviceptr, CUstream))
TREADLE_CU_ENTRY(cuDeviceGetDefaultMemPool, false, (CUmemoryPool*, CUdevice))
TREADLE_CU_ENTRY(cuMemPoolSetAttribute, false, (CUmemoryPool, int, void*))
TREADLE_CU_ENTRY(cuMemPoolGetAttribute, false, (CUmemoryPool, int, void*))
TREADLE_CU_ENTRY(cuMemPoolSetAccess, false, (CUmemoryPool, const MemAccessDesc*, size_t))
TREADLE_CU_ENTRY(cuMemPoolGetAccess, false, (int*, CUmemoryPool, MemLocation*))
TREADLE_CU_ENTRY(cuDeviceCanAccessPeer, true, (int*, CUdevice, CUdevice))
TREADLE_CU_ENTRY(cuCtxEnablePeerAccess, true, (CUcontext, unsigned int))
TREADLE_CU_ENTRY(cuCtxDisablePeerAccess, true, (CUcontext))
TREADLE_CU_ENTRY(cuMemcpyHtoDAsync_v2, true, (CUdeviceptr, const void*, size_t, CUstream))
TREADLE_CU_ENTRY(cuMemcpyDtoHAsync_v2, true, (void*, CUdeviceptr, size_t, CUstream))
TREADLE_CU_ENTRY(cuMemcpyDtoDAsync_v2, true, (CUdeviceptr, CUdeviceptr, size_t, CUstream))
TREADLE_CU_ENTRY(cuMemsetD8Async, true, (CUdeviceptr, unsigned char, size_t, CUstream))
TREADLE_CU_ENTRY(cuMemsetD16Async, true, (CUdeviceptr, unsigned short, size_t, CUstream))
TREADLE_CU_ENTRY(cuMemsetD32Async, true, (CUdeviceptr, unsigned int, size_t, CUstream))

// Streams
TREADLE_CU_ENTRY(cuStreamSynchronize, true, (CUstream))
TREADLE_CU_ENTRY(cuStreamCreate, true, (CUstream*, unsigned int))
TREADLE_CU_ENTRY(cuStreamCreateWithPriority, true, (CUstream*, unsigned int, int))
TREADLE_CU_ENTRY(cuStreamDestroy_v2, true, (CUstream))
TREADLE_CU_ENTRY(cuStreamQuery, true, (CUstream))
TREADLE_CU_ENTRY(cuStreamWaitEvent, true, (CUstream, CUevent, unsigned int))
TREADLE_CU_ENTRY(cuStreamGetPriority, true, (CUstream, int*))
TREADLE_CU_ENTRY(cuStreamGetFlags, true, (CUstream, unsigned int*))

// Events
TREADLE_CU_ENTRY(cuEventCreate, true, (CUevent*, unsigned int))
TREADLE_CU_ENTRY(cuEventDestroy_v2, true, (CUevent))
TREADLE_CU_ENTRY(cuEventRecord, true, (CUevent, CUstream))
TREADLE_CU_ENTRY(cuEventRecordWithFlags, false, (CUevent, CUstream, unsigned int))
TREADLE_CU_ENTRY(cuEventSynchronize, true, (CUevent))
TREADLE_CU_ENTRY(cuEventQuery, true, (CUevent))
TREADLE_CU_ENTRY(cuEventElapsedTime, true, (float*, CUevent, CUevent))

// Graph capture
TREADLE_CU_ENTRY(cuStreamBeginCapture_v2, false, (CUstream, int))
TREADLE_CU_ENTRY(cuStreamEndCapture, false, (CUstream, CUgraph*))
TREADLE_CU_ENTRY(cuStreamIsCapturing, false, (CUstream, int*))
TREADLE_CU_ENTRY(cuThreadExchangeStreamCaptureMode, false, (int*))
TREADLE_CU_ENTRY(cuStreamGetCaptureInfo_v2, false,
                 (CUstream, int*, std::uint64_t*, CUgraph*, const CUgraphNode**, size_t*))
TREADLE_CU_ENTRY(cuGraphInstantiateWithFlags, false, (CUgraphExec*, CUgraph, unsigned long long))
TREADLE_CU_ENTRY(cuGraphLaunch, false, (CUgraphExec, CUstream))
TREADLE_CU_ENTRY(cuGraphDestroy, false, (CUgraph))
TREADLE_CU_ENTRY(cuGraphExecDestroy, false, (CUgraphExec))
TREADLE_CU_ENTRY(cuGraphDebugDotPrint, false, (CUgraph, const char*, unsigned int))

// Graph nodes: the free nodes of captured allocations, and the queries of the graph's shape
TREADLE_CU_ENTRY(cuGraphAddEmptyNode, false, (CUgraphNode*, CUgraph, const CUgraphNode*, size_t))
TREADLE_CU_ENTRY(cuGraphAddMemFreeNode, false,
                 (CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUdeviceptr))
TREADLE_CU_ENTRY(cuGraphNodeGetDependencies, false, (CUgraphNode, CUgraphNode*, size_t*))
TREADLE_CU_ENTRY(cuGraphNodeGetDependentNodes, false, (CUgraphNode, CUgraphNode*, size_t*))
TREADLE_CU_ENTRY(cuGraphNodeGetType, false, (CUgraphNode, int*))
TREADLE_CU_ENTRY(cuGraphMemAllocNodeGetParams, false, (CUgraphNode, MemAllocNodeParams*))
TREADLE_CU_ENTRY(cuGraphMemFreeNodeGetParams, false, (CUgraphNode, CUdeviceptr*))
TREADLE_CU_ENTRY(cuDeviceGetGraphMemAttribute, false, (CUdevice, int, void*))
TREADLE_CU_ENTRY(cuDeviceGraphMemTrim, false, (CUdevice))

// Conditional graph nodes (CUDA 12.3+) and linking with the device runtime library
TREADLE_CU_ENTRY(cuGraphConditionalHandleCreate, false,
                 (CUgraphConditionalHandle*, CUgraph, CUcontext, unsigned int, unsigned int))
TREADLE_CU_ENTRY(cuGraphAddNode, false,
                 (CUgraphNode*, CUgraph, const CUgraphNode*, size_t, GraphNodeParams*))
TREADLE_CU_ENTRY(cuGraphAddChildGraphNode, false,
                 (CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUgraph))
TREADLE_CU_ENTRY(cuStreamBeginCaptureToGraph, false,
                 (CUstream, CUgraph, const CUgraphNode*, const void*, size_t, int))
TREADLE_CU_ENTRY(cuStreamUpdateCaptureDependencies, false,
                 (CUstream, CUgraphNode*, size_t, unsigned int))
TREADLE_CU_ENTRY(cuLinkCreate_v2, false, (unsigned int, int*, void**, CUlinkState*))
TREADLE_CU_ENTRY(cuLinkAddData_v2, false,
                 (CUlinkState, int, void*, size_t, const char*, unsigned int, int*, void**))
TREADLE_CU_ENTRY(cuLinkAddFile_v2, false,
                 (CUlinkState, int, const char*, unsigned int, int*, void**))
TREADLE_CU_ENTRY(cuLinkComplete, false, (CUlinkState, void**, size_t*))
TREADLE_CU_ENTRY(cuLinkDestroy, false, (CUlinkState))

// Modules and launches
TREADLE_CU_ENTRY(cuModuleLoadData, true, (CUmodule*, const void*))
TREADLE_CU_ENTRY(cuModuleUnload, true, (CUmodule))
TREADLE_CU_ENTRY(cuModuleGetFunction, true, (CUfunction*, CUmodule, const char*))
TREADLE_CU_ENTRY(cuModuleGetGlobal_v2, true, (CUdeviceptr*, size_t*, CUmodule, const char*))
TREADLE_CU_ENTRY(cuFuncSetAttribute, true, (CUfunction, int, int))
TREADLE_CU_ENTRY(cuLaunchKernel, true,
                 (CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
                  unsigned int, unsigned int, CUstream, void**, void**))
