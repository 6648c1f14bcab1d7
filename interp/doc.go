// Package interp is spvx's CPU executor for SPIR-V compute: GLCompute
// shaders and OpenCL Kernel modules.
//
// Compile turns one entry point into an immutable Program: a register
// machine over SSA ids (every value is flattened into scalar components, each
// component a slot of one uint64 per lane), with constants and specialization
// constants folded, types resolved to widths and memory layouts, and every
// function's blocks numbered in a structure-respecting reverse postorder
// (blockorder.go), with every loop's blocks contiguous.
//
// Execution is SIMT: a subgroup's lanes run each instruction together under
// an active set of lanes, so interpretation costs are paid per subgroup and
// not per invocation. Every lane has its own block counter; the scheduler
// always runs the lowest-numbered block some lane waits at, with all the lanes
// waiting there. Because a construct's blocks are numbered before its merge
// block (and a loop's body before the loop's merge, or in unstructured code
// before every block the loop exits to), lanes that diverge
// reconverge at the first block they have in common: the merge block for
// structured code, the first common successor (the thread-frontier rule,
// which is never later than the immediate post-dominator) for unstructured
// Kernel code.
//
// Workgroups run in parallel on goroutines. A workgroup's subgroups share
// one register file, and while the workgroup's control flow is uniform they
// run as one wide group, each instruction interpreted once for all its
// lanes (instructions of subgroup scope still run per subgroup); at the
// first divergent branch, call or other split point each subgroup resumes
// on its own, one after another on the goroutine, switching at
// OpControlBarrier (wide.go; Options.SeparateSubgroups turns it off). Memory is
// byte slices (the caller's buffers are used in place); pointers are 64-bit
// values holding a region number and a byte offset, and every access is
// bounds-checked. Run-time errors are *Fault values naming the instruction,
// the function and the invocation. When several workgroups fault, the one
// reported is the first in hand-out order (dispatch.record): workgroups
// handed out after it stop, those before it run to their end, so the
// report does not depend on the workers' timing.
//
// Floating-point arithmetic is exact IEEE 754 with round to nearest even,
// denormals and signed zeros kept; the SPV_KHR_float_controls execution
// modes DenormFlushToZero and RoundingModeRTZ change that per width, as
// floatctl.go describes.
//
// Files: compile.go drives compilation (entry point, globals, constants),
// cfg.go compiles functions and their edges, compile_op.go hands each
// instruction to its family's compiler (compile_arith.go, _composite,
// _convert, _memory, _control, _group; extinst.go, atomic.go, image.go
// for storage images and texel buffers, sampler.go for samplers and
// sampled images with sample_filter.go and sample_cube.go), each file
// also holding its family's cold run-time cases. exec.go runs
// instructions and schedules blocks, join.go runs divergent branches
// into short arms that meet again without the scheduler, wide.go runs
// wide groups,
// dispatch.go hands out workgroups.
package interp
