/* A stand-in for the CUDA driver (libcuda.so.1) that runs no kernel: device
 * memory is host memory, launches do nothing. It tests what runs a bundle
 * around the kernels on a machine without a GPU: the driver is opened, the
 * library's constructors load its modules (cuModuleGetFunction accepts only
 * a handle cuModuleLoadData returned), the entry is called, buffers come from
 * the pool. Results differ from the reference: no kernel ran. */
#include <stdlib.h>
#include <string.h>
typedef unsigned long long P;
int cuInit(unsigned f){return 0;}
int cuDriverGetVersion(int*v){*v=13000;return 0;}
int cuDeviceGet(int*d,int o){*d=0;return 0;}
int cuDeviceGetName(char*n,int l,int d){strncpy(n,"Fake",l);return 0;}
int cuDeviceGetAttribute(int*v,int a,int d){*v=a==75?9:0;return 0;}
int cuDevicePrimaryCtxRetain(void**c,int d){*c=(void*)1;return 0;}
int cuCtxSetCurrent(void*c){return 0;}
int cuGetErrorName(int r,const char**s){*s="FAKE_ERROR";return 0;}
int cuModuleLoadData(void**m,const void*d){*m=(void*)0x1234;return 0;}
int cuModuleUnload(void*m){return 0;}
/* One handle per kernel name, as a driver gives. */
static char names[64][128];
static int named;
int cuModuleGetFunction(void**f,void*m,const char*n){
  if(m!=(void*)0x1234)return 400;
  for(int i=0;i<named;i++) if(!strcmp(names[i],n)){*f=names[i];return 0;}
  if(named==64)return 1;
  strncpy(names[named],n,127); *f=names[named++]; return 0;}
int cuLaunchKernel(void*f,unsigned a,unsigned b,unsigned c,unsigned d,unsigned e,unsigned g,unsigned s,void*st,void**p,void**x){return 0;}
int cuStreamCreate(void**s,unsigned f){*s=(void*)2;return 0;}
int cuStreamDestroy_v2(void*s){return 0;}
int cuStreamSynchronize(void*s){return 0;}
int cuStreamWaitEvent(void*s,void*e,unsigned f){return 0;}
int cuEventCreate(void**e,unsigned f){*e=(void*)3;return 0;}
int cuEventDestroy_v2(void*e){return 0;}
int cuEventRecord(void*e,void*s){return 0;}
int cuEventSynchronize(void*e){return 0;}
int cuEventElapsedTime_v2(float*ms,void*a,void*b){*ms=0.01f;return 0;}
int cuMemAlloc_v2(P*p,size_t n){*p=(P)calloc(1,n);return 0;}
int cuMemAllocManaged(P*p,size_t n,unsigned f){*p=(P)malloc(n);return 0;}
int cuMemFree_v2(P p){free((void*)p);return 0;}
int cuMemcpyAsync(P d,P s,size_t n,void*st){memcpy((void*)d,(void*)s,n);return 0;}
int cuMemsetD32Async(P d,unsigned v,size_t n,void*s){for(size_t i=0;i<n;i++)((unsigned*)d)[i]=v;return 0;}
int cuMemsetD16Async(P d,unsigned short v,size_t n,void*s){for(size_t i=0;i<n;i++)((unsigned short*)d)[i]=v;return 0;}
int cuMemGetInfo_v2(size_t*f,size_t*t){*f=*t=1<<30;return 0;}
