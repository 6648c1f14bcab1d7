package mx

// withGatherDecode runs fn with the float formats' decoders gathering from
// the tables instead of computing (the path of a machine without F16C for
// binary16 output, and the kernels' first form).
func withGatherDecode(fn func()) {
	arith, f16c := useArithDecode, useF16C
	useArithDecode, useF16C = false, false
	defer func() { useArithDecode, useF16C = arith, f16c }()
	fn()
}
