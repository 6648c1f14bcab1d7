// Package examples holds no code: it is the home of the files the
// README's and docs' examples run on. The modules (saxpy.spv,
// switch64.spv, scan.spv) are built from src/ by src/build.sh; data/
// holds their inputs and a small .npy tensor, bad/ inputs that the
// commands reject. coopmat_fp8_gemm.amber is an Amber script: an FP8
// GEMM through cooperative matrices, whose buffers coopmat_test.go
// generates from its own model of the GEMM. Its tests check that each shipped module is what its
// source builds to and that each generated file is what its generator
// (data_test.go) makes; cmd/spvx's README test runs the examples.
// src/gemm_int8_dpas.spvasm and src/gemm_bf16_dpas.spvasm are GEMM kernels
// built from the Intel matrix, 2D block and bitcast shuffle instructions;
// gemm_test.go runs them against plain Go GEMMs.
package examples
