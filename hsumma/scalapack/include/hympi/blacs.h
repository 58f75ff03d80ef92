/* The few BLACS/PBLAS entry points hympi calls: the P?GEMM baselines of the apps
 * and the drop-in p?gemm (hsumma/scalapack). Debian's libscalapack-<mpi> ships no
 * C header; BLACS lives inside the same library. Not HSUMMA's: ScaLAPACK's. */
#ifndef HYMPI_BLACS_H
#define HYMPI_BLACS_H
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void Cblacs_exit(int continue_mpi); /* 0: also MPI_Finalize */
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc, const int* icsrc,
               const int* context, const int* lld, int* info);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
/* The other precisions; complex arrays and scalars as (re, im) pairs. */
void psgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
             const float* a, const int* ia, const int* ja, const int* desca, const float* b, const int* ib,
             const int* jb, const int* descb, const float* beta, float* c, const int* ic, const int* jc,
             const int* descc);
void pcgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
             const float* a, const int* ia, const int* ja, const int* desca, const float* b, const int* ib,
             const int* jb, const int* descb, const float* beta, float* c, const int* ic, const int* jc,
             const int* descc);
void pzgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);

/* What the drop-in needs besides: a BLACS context's communicator (Cblacs_get
 * what = 10, then the handle's MPI_Comm). */
void Cblacs_get(int context, int what, int* value);
MPI_Comm Cblacs2sys_handle(int handle);

#ifdef __cplusplus
}
#endif
#endif
