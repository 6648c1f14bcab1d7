package interp

// op is an internal instruction code. Control-flow ops come first so the
// executor can tell them apart with one comparison.
type op uint16

const (
	opNop op = iota
	// control
	opBranch
	opBranchCond
	opSwitch
	opReturn
	opReturnValue
	opKill
	opUnreachable
	opUndefinedOp // an instruction whose every execution is undefined, aux: Program.undefined index
	opCall
	opBarrier
	opWGGroup // work-group collective (OpGroup* at Workgroup scope): a barrier that combines values
	opLastControl

	// data movement
	opCopy    // dst[0:n] = a[0:n]
	opSelect  // per component: c ? a : b; cond scalar (imm 0) or per component (imm 1)
	opShuffle // aux: component map into a (<n) then b (>=n)... see exec
	opExtractDyn
	opInsertDyn
	opTranspose
	opConst // dst[0:n] = program constants (unused: constants are slots)

	// integer fast paths
	opIAdd
	opISub
	opIMul
	opAnd
	opOr
	opXor
	opShl
	opShrL
	opShrA
	opIEq
	opINe
	opULt
	opULe
	opUGt
	opUGe
	opSLt
	opSLe
	opSGt
	opSGe
	// float32 fast paths
	opFAdd32
	opFSub32
	opFMul32
	opFDiv32
	opFAdd64
	opFSub64
	opFMul64
	opFDiv64

	// generic, through function tables
	opBin  // aux: binTab index
	opUn   // aux: unTab index
	opConv // aux: conversion kind
	opBitcast
	opBitcastExtract
	opDiv // integer division family, aux: which; checks zero
	opBitField
	opExtArith // IAddCarry...: aux kind
	opDot      // float dot product
	opIDot     // integer dot product, aux: kind
	opMatrix   // matrix ops, aux: kind
	opAnyAll
	opExtInst

	// memory
	opLoad
	opStore
	opLoadLane  // load through a per-lane pointer known at compile time, imm: its offset
	opStoreLane // store through such a pointer
	opLoadUni   // load through a uniform pointer known at compile time: once, for all lanes
	opBuiltin   // load of a built-in input computed, not read, aux: bloads index
	opLoadIdx   // load through a fused access chain: a base, c chain, b the chain's register (fused.go)
	opStoreIdx  // store through a fused access chain: a base, b value, c chain, dst the chain's register
	opChain
	opArrayLength
	opCopyMem
	opCopyMemSized
	opPtrCmp
	opPtrDiff
	opAtomic
	opGenericCast
	opCLMem // OpenCL.std vload/vstore family

	// subgroup
	opGroup

	opFloatCtl // float controls (floatctl.go), aux: fcFlush...
	opDeriv    // compute derivatives (derivative.go), aux: derivKind
	opImage    // image instructions (image.go), aux: images index
	opSample   // sampler instructions (sampler.go), aux: samples index
	opDPAS     // OpSubgroupMatrixMultiplyAccumulateINTEL (dpas.go), aux: dpas index
	opBlock2D  // SPV_INTEL_2d_block_io (block2d.go), aux: block2d index
	opCoopMat  // cooperative matrix load, store, MulAdd (coopmat.go), aux: coop index
)
