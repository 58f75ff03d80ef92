/* hympi's drop-in P?GEMM (library hympi_scalapack): ScaLAPACK's psgemm_,
 * pdgemm_, pcgemm_ and pzgemm_ run by the SUMMA/HSUMMA engine, for C callers
 * and for tuning from code. Fortran callers just call PSGEMM, PDGEMM, PCGEMM or
 * PZGEMM. See hsumma/scalapack/README.md. */
#ifndef HYMPI_PDGEMM_H
#define HYMPI_PDGEMM_H
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sub(C) = alpha * op(sub(A)) * op(sub(B)) + beta * sub(C), with PDGEMM's
 * arguments by value (offsets 1-based, descriptors as ScaLAPACK's). Returns 1
 * when hympi ran it, 0 when it went to ScaLAPACK's pdgemm (which then reported
 * any argument error exactly as it does). */
int hympi_pdgemm(char transa, char transb, int m, int n, int k, double alpha, const double* a, int ia, int ja,
                 const int* desca, const double* b, int ib, int jb, const int* descb, double beta, double* c, int ic,
                 int jc, const int* descc);
/* The same in single precision, and in complex (float and double): complex
 * arrays hold (re, im) pairs, complex alpha and beta point at one pair each.
 * TRANS 'C' is the conjugate transpose for complex, the transpose for real. */
int hympi_psgemm(char transa, char transb, int m, int n, int k, float alpha, const float* a, int ia, int ja,
                 const int* desca, const float* b, int ib, int jb, const int* descb, float beta, float* c, int ic,
                 int jc, const int* descc);
int hympi_pcgemm(char transa, char transb, int m, int n, int k, const float* alpha, const float* a, int ia, int ja,
                 const int* desca, const float* b, int ib, int jb, const int* descb, const float* beta, float* c,
                 int ic, int jc, const int* descc);
int hympi_pzgemm(char transa, char transb, int m, int n, int k, const double* alpha, const double* a, int ia, int ja,
                 const int* desca, const double* b, int ib, int jb, const int* descb, const double* beta, double* c,
                 int ic, int jc, const int* descc);

/* Settings by key, as the HYMPI_PDGEMM_* variables (hsumma/scalapack/README.md
 * lists them; an unknown key's message names the known ones). Must be equal on
 * every rank of a grid. Returns 0, or -1 with hympi_pdgemm_last_error() naming
 * the problem (the setting is then unchanged). */
int hympi_pdgemm_set(const char* key, const char* value);
/* The same keys read from an MPI_Info: keys absent from it are left alone, keys
 * hympi does not know are ignored, MPI_INFO_NULL changes nothing (returns 0).
 * All or nothing: when any known key has a bad value, -1 with
 * hympi_pdgemm_last_error() naming that key and value, and none of the info's
 * keys is applied. */
int hympi_pdgemm_set_info(MPI_Info info);
const char* hympi_pdgemm_last_error(void);

/* This rank's pdgemm calls so far: run by hympi, valid but passed on to
 * ScaLAPACK, and argument errors (or calls outside the grid) left to ScaLAPACK.
 * Null pointers are skipped. */
void hympi_pdgemm_counts(long long* handled, long long* passed, long long* errors);
/* Of this rank's pdgemm calls run by hympi, those run by the direct engine on
 * the caller's own block-cyclic arrays (no redistribution; see README). */
long long hympi_pdgemm_direct_count(void);
/* The same counters of one precision ('s', 'd', 'c' or 'z'; another letter
 * reads 'd'), `direct` among the handled ones. Null pointers are skipped. */
void hympi_pgemm_counts(char precision, long long* handled, long long* passed, long long* errors, long long* direct);
/* Seconds this rank spent so far in the calls of one precision that hympi ran,
 * by phase: moving operands (staging, redistribution), C := beta * C, panels
 * (packing, broadcasts and the waits for them), local GEMM updates, and the
 * whole calls (decisions and planning included). Null pointers are skipped.
 * For timing tools (hympi-pdgemm-bench prints them). */
void hympi_pgemm_phase_seconds(char precision, double* staging, double* scale, double* panels, double* gemm,
                               double* total);
/* BLACS grids whose engines (communicators, node windows) hympi holds on this
 * rank: live grids (a grid leaves this count at blacs_gridexit; BLACS's
 * blacs_exit ends every grid through it), and retired ones: left, but their
 * engines not yet freed. Leaving is local; a left grid's engines are freed at
 * the first creation of a grid (its first p?gemm call) that holds all of its
 * ranks once every one of them has left it, and at MPI_Finalize. */
int hympi_pdgemm_cached_grids(void);
int hympi_pdgemm_retired_grids(void);

#ifdef __cplusplus
}
#endif
#endif
