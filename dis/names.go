package dis

import (
	"encoding/binary"
	"strconv"

	"spvx/spirv"
)

// namer assigns the friendly names spirv-dis prints for ids, following
// SPIRV-Tools' FriendlyNameMapper: one pass over the module in order, the
// first suggestion for an id wins, and a suggestion already taken by another
// id gets the first free suffix _0, _1, ... An id that is never named prints
// as its number.
//
// The tables are small on purpose: fresh memory is the main cost of a
// disassembler process (see stream). Most ids are named by their own number,
// which is neither stored nor hashed: a bit records that the number is
// taken. Other names are stored once, length-prefixed, in a byte arena that
// a per-id offset and the taken-name set point into.
type namer struct {
	refs  []uint32          // by id below len(refs): refNone, refOwn or an arena offset
	big   map[uint32]uint32 // the same for ids at or above len(refs), if any
	arena []byte            // length-prefixed names; offset 0 is unused
	set   nameSet           // taken names, except small numbers
	nums  []uint64          // bitset of the small numbers taken as names
	buf   []byte            // scratch for building suggestions
	stems stemSet           // per taken stem, the suffix to try first
	raw   bool              // RawID: every id is named by its number
}

// Values of namer.refs besides arena offsets.
const (
	refNone = 0         // not named: prints as its number
	refOwn  = 1<<32 - 1 // named by its own number
)

func newNamer(bound uint32, nwords int, raw bool) *namer {
	// A bound far larger than the module is legal: keep the dense tables
	// proportional to the input, as the decoder does.
	n := uint64(bound)
	if limit := uint64(nwords) + 64; n > limit {
		n = limit
	}
	nm := &namer{
		refs: make([]uint32, n),
		raw:  raw,
		// Generous: capacity that is never used is never touched, whereas
		// growing copies the names (a real module needs about nwords/3).
		arena: make([]byte, 1, nwords/2+4096),
		buf:   make([]byte, 0, 256),
	}
	if !raw {
		nm.nums = make([]uint64, (n+63)/64)
		nm.set.init(1024)
		nm.stems.init(64)
		nm.stems.next = make(map[uint32]uint32)
	}
	return nm
}

func (nm *namer) ref(id uint32) uint32 {
	if int(id) < len(nm.refs) {
		return nm.refs[id]
	}
	return nm.big[id]
}

// appendName appends the name of id.
func (nm *namer) appendName(b []byte, id uint32) []byte {
	var r uint32
	if int(id) < len(nm.refs) {
		r = nm.refs[id]
	} else {
		r = nm.big[id]
	}
	if r == refNone || r == refOwn {
		return appendUint(b, uint64(id))
	}
	return append(b, nm.arenaName(r)...)
}

// arenaName returns the name stored at arena offset r.
func (nm *namer) arenaName(r uint32) []byte {
	n, k := uvarint(nm.arena[r:])
	start := int(r) + k
	return nm.arena[start : start+n]
}

func uvarint(b []byte) (int, int) {
	v, shift := 0, 0
	for i, c := range b {
		v |= int(c&0x7F) << shift
		if c < 0x80 {
			return v, i + 1
		}
		shift += 7
	}
	return v, len(b)
}

// nameLen returns the length of the name of id.
func (nm *namer) nameLen(id uint32) int {
	if r := nm.ref(id); r != refNone && r != refOwn {
		n, _ := uvarint(nm.arena[r:])
		return n
	}
	return decimalLen(id)
}

func decimalLen(v uint32) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}

func (nm *namer) isNamed(id uint32) bool { return nm.ref(id) != refNone }

func (nm *namer) setRef(id, r uint32) {
	if int(id) < len(nm.refs) {
		nm.refs[id] = r
		return
	}
	if nm.big == nil {
		nm.big = make(map[uint32]uint32)
	}
	nm.big[id] = r
}

// intern copies s into the arena and returns its offset.
func (nm *namer) intern(s []byte) uint32 {
	r := uint32(len(nm.arena))
	nm.arena = binary.AppendUvarint(nm.arena, uint64(len(s)))
	nm.arena = append(nm.arena, s...)
	return r
}

// smallNumber reports whether s is the canonical decimal form of a number
// that the bitset tracks.
func (nm *namer) smallNumber(s []byte) (uint32, bool) {
	if len(s) == 0 || len(s) > 10 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	var v uint64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	if v >= uint64(len(nm.nums))*64 {
		return 0, false
	}
	return uint32(v), true
}

func (nm *namer) numTaken(v uint32) bool { return nm.nums[v/64]&(1<<(v%64)) != 0 }
func (nm *namer) takeNum(v uint32)       { nm.nums[v/64] |= 1 << (v % 64) }

// taken reports whether the name s is taken.
func (nm *namer) taken(s []byte) bool {
	if v, ok := nm.smallNumber(s); ok {
		return nm.numTaken(v)
	}
	return nm.set.find(nm.arena, s) != nil
}

// claim gives id the free name s.
func (nm *namer) claim(id uint32, s []byte) {
	if v, ok := nm.smallNumber(s); ok {
		nm.takeNum(v)
		if v == id {
			nm.setRef(id, refOwn)
		} else {
			nm.setRef(id, nm.intern(s))
		}
		return
	}
	r := nm.intern(s)
	nm.setRef(id, r)
	nm.set.add(hashName(s), r)
}

// save gives id the sanitized suggestion s, unless id already has a name.
// s is modified.
func (nm *namer) save(id uint32, s []byte) {
	if nm.isNamed(id) {
		return
	}
	s = sanitize(s)
	if !nm.taken(s) {
		nm.claim(id, s)
		return
	}
	// Taken: the first free suffix. Names are never released, so every
	// suffix below the one given last time for this stem is still taken;
	// resuming there keeps a stem shared by thousands of ids (a linked
	// module's "main") linear instead of quadratic.
	var next uint32
	if e := nm.stems.find(nm.arena, s); e != nil {
		next = nm.stems.next[e.ref]
	}
	base := len(s)
	s = append(s, '_')
	for i := next; ; i++ {
		s = strconv.AppendUint(s[:base+1], uint64(i), 10)
		if nm.taken(s) {
			continue
		}
		nm.claim(id, s)
		stem := s[:base]
		if e := nm.stems.find(nm.arena, stem); e != nil {
			nm.stems.next[e.ref] = i + 1
		} else {
			r := nm.intern(stem)
			nm.stems.add(hashName(stem), r)
			nm.stems.next[r] = i + 1
		}
		return
	}
}

// saveNumber gives id its own number as its name, unless it has a name.
func (nm *namer) saveNumber(id uint32) {
	if nm.raw {
		if !nm.isNamed(id) {
			nm.setRef(id, refOwn)
		}
		return
	}
	if int(id) < len(nm.refs) {
		if nm.refs[id] != refNone {
			return
		}
		if v := id; v < uint32(len(nm.nums))*64 && !nm.numTaken(v) {
			nm.takeNum(v)
			nm.refs[id] = refOwn
			return
		}
	}
	nm.buf = appendUint(nm.buf[:0], uint64(id))
	nm.save(id, nm.buf)
}

// nameSet is an open-addressing hash set of names held in the namer's
// arena, lighter than a map[string] that would need a string per name.
type nameSet struct {
	slots []setSlot // power-of-two length; ref == 0 marks an empty slot
	count int
}

type setSlot struct {
	hash uint32
	ref  uint32 // arena offset of the name
}

func (t *nameSet) init(n int) { t.slots = make([]setSlot, n) }

// stemSet is a nameSet of suffix stems with, by the stem's arena offset,
// the next suffix to try. Collisions are rare, so a map serves.
type stemSet struct {
	nameSet
	next map[uint32]uint32
}

func hashName(s []byte) uint32 {
	h := uint32(2166136261) // FNV-1a
	for _, c := range s {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// find returns the slot of s, or nil.
func (t *nameSet) find(arena, s []byte) *setSlot {
	h := hashName(s)
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &t.slots[i]
		if e.ref == 0 {
			return nil
		}
		if e.hash == h {
			n, k := uvarint(arena[e.ref:])
			start := int(e.ref) + k
			if string(arena[start:start+n]) == string(s) {
				return e
			}
		}
	}
}

// add inserts the name at arena offset ref, which is not in the set.
func (t *nameSet) add(hash, ref uint32) {
	if (t.count+1)*4 > len(t.slots)*3 {
		old := t.slots
		t.slots = make([]setSlot, len(old)*2)
		for _, e := range old {
			if e.ref != 0 {
				t.insert(e)
			}
		}
	}
	t.insert(setSlot{hash: hash, ref: ref})
	t.count++
}

func (t *nameSet) insert(e setSlot) {
	mask := uint32(len(t.slots) - 1)
	for i := e.hash & mask; ; i = (i + 1) & mask {
		if t.slots[i].ref == 0 {
			t.slots[i] = e
			return
		}
	}
}

// sanitize replaces, in place, every byte outside [A-Za-z0-9_] by '_'; an
// empty name becomes "_".
func sanitize(s []byte) []byte {
	if len(s) == 0 {
		return append(s, '_')
	}
	for i, c := range s {
		if !isIdentByte(c) {
			s[i] = '_'
		}
	}
	return s
}

func isIdentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// floatEncodingNames names OpTypeFloat types that carry an FP Encoding
// operand: the encoding, not the width, identifies them.
var floatEncodingNames = map[spirv.FPEncoding]string{
	spirv.FPEncodingBFloat16KHR:           "bfloat16",
	spirv.FPEncodingFloat8E4M3EXT:         "fp8e4m3",
	spirv.FPEncodingFloat8E5M2EXT:         "fp8e5m2",
	spirv.FPEncodingFloat6E2M3EXT:         "fp6e2m3",
	spirv.FPEncodingFloat6E3M2EXT:         "fp6e3m2",
	spirv.FPEncodingFloat4E2M1EXT:         "fp4e2m1",
	spirv.FPEncodingFloat8UnsignedE8M0EXT: "fp8e8m0",
	spirv.FPEncodingMXInt8EXT:             "mxint8",
}

// builtinNames is SPIRV-Tools' list of BuiltIn decorations that name an
// otherwise unnamed variable; other built-ins leave it unnamed.
var builtinNames = map[spirv.BuiltIn]string{
	spirv.BuiltInPosition:                  "gl_Position",
	spirv.BuiltInPointSize:                 "gl_PointSize",
	spirv.BuiltInClipDistance:              "gl_ClipDistance",
	spirv.BuiltInCullDistance:              "gl_CullDistance",
	spirv.BuiltInVertexId:                  "gl_VertexID",
	spirv.BuiltInInstanceId:                "gl_InstanceID",
	spirv.BuiltInPrimitiveId:               "gl_PrimitiveID",
	spirv.BuiltInInvocationId:              "gl_InvocationID",
	spirv.BuiltInLayer:                     "gl_Layer",
	spirv.BuiltInViewportIndex:             "gl_ViewportIndex",
	spirv.BuiltInTessLevelOuter:            "gl_TessLevelOuter",
	spirv.BuiltInTessLevelInner:            "gl_TessLevelInner",
	spirv.BuiltInTessCoord:                 "gl_TessCoord",
	spirv.BuiltInPatchVertices:             "gl_PatchVertices",
	spirv.BuiltInFragCoord:                 "gl_FragCoord",
	spirv.BuiltInPointCoord:                "gl_PointCoord",
	spirv.BuiltInFrontFacing:               "gl_FrontFacing",
	spirv.BuiltInSampleId:                  "gl_SampleID",
	spirv.BuiltInSamplePosition:            "gl_SamplePosition",
	spirv.BuiltInSampleMask:                "gl_SampleMask",
	spirv.BuiltInFragDepth:                 "gl_FragDepth",
	spirv.BuiltInHelperInvocation:          "gl_HelperInvocation",
	spirv.BuiltInNumWorkgroups:             "gl_NumWorkGroups",
	spirv.BuiltInWorkgroupSize:             "gl_WorkGroupSize",
	spirv.BuiltInWorkgroupId:               "gl_WorkGroupID",
	spirv.BuiltInLocalInvocationId:         "gl_LocalInvocationID",
	spirv.BuiltInGlobalInvocationId:        "gl_GlobalInvocationID",
	spirv.BuiltInLocalInvocationIndex:      "gl_LocalInvocationIndex",
	spirv.BuiltInWorkDim:                   "WorkDim",
	spirv.BuiltInGlobalSize:                "GlobalSize",
	spirv.BuiltInEnqueuedWorkgroupSize:     "EnqueuedWorkgroupSize",
	spirv.BuiltInGlobalOffset:              "GlobalOffset",
	spirv.BuiltInGlobalLinearId:            "GlobalLinearId",
	spirv.BuiltInSubgroupSize:              "SubgroupSize",
	spirv.BuiltInSubgroupMaxSize:           "SubgroupMaxSize",
	spirv.BuiltInNumSubgroups:              "NumSubgroups",
	spirv.BuiltInNumEnqueuedSubgroups:      "NumEnqueuedSubgroups",
	spirv.BuiltInSubgroupId:                "SubgroupId",
	spirv.BuiltInSubgroupLocalInvocationId: "SubgroupLocalInvocationId",
	spirv.BuiltInVertexIndex:               "gl_VertexIndex",
	spirv.BuiltInInstanceIndex:             "gl_InstanceIndex",
	spirv.BuiltInBaseInstance:              "gl_BaseInstance",
	spirv.BuiltInSubgroupEqMask:            "SubgroupEqMaskKHR",
	spirv.BuiltInSubgroupGeMask:            "SubgroupGeMaskKHR",
	spirv.BuiltInSubgroupGtMask:            "SubgroupGtMaskKHR",
	spirv.BuiltInSubgroupLeMask:            "SubgroupLeMaskKHR",
	spirv.BuiltInSubgroupLtMask:            "SubgroupLtMaskKHR",
}

// enumName returns the canonical name of value in kind k, or the fallback
// SPIRV-Tools gives for a value its grammar lacks.
func enumName(k spirv.OperandKind, value uint32) string {
	if e, ok := k.Enumerant(value); ok {
		return e.Name
	}
	return "StorageClass" + strconv.FormatUint(uint64(value), 10)
}

// computeNames runs the friendly-name pass over m.
func computeNames(m *spirv.Module, nwords int, raw bool) *namer {
	nm := newNamer(m.Header.Bound, nwords, raw)
	for i := range m.Len() {
		in := m.Inst(i)
		nm.add(&in)
	}
	return nm
}

// add names what instruction in names: its result id, or OpName's and
// OpDecorate BuiltIn's target.
func (nm *namer) add(in *spirv.Instruction) {
	if nm.raw {
		if in.ResultID != 0 {
			nm.saveNumber(in.ResultID)
		}
		return
	}
	nm.inst(in)
}

func (nm *namer) inst(in *spirv.Instruction) {
	w := in.Words
	id := in.ResultID
	b := nm.buf[:0]
	switch in.Opcode {
	case spirv.OpName:
		if len(in.Operands) >= 2 {
			b = appendString(b, in.OperandWords(1))
			nm.save(w[1], b)
		}
	case spirv.OpDecorate:
		if len(w) > 3 && spirv.Decoration(w[2]) == spirv.DecorationBuiltIn {
			if s, ok := builtinNames[spirv.BuiltIn(w[3])]; ok {
				nm.save(w[1], append(b, s...))
			}
		}
	case spirv.OpTypeVoid:
		nm.save(id, append(b, "void"...))
	case spirv.OpTypeBool:
		nm.save(id, append(b, "bool"...))
	case spirv.OpTypeInt:
		if len(w) < 4 {
			break
		}
		prefix, root := "", ""
		switch w[2] {
		case 8:
			root = "char"
		case 16:
			root = "short"
		case 32:
			root = "int"
		case 64:
			root = "long"
		default:
			prefix = "i"
		}
		if w[3] == 0 {
			prefix = "u"
		}
		b = append(b, prefix...)
		if root == "" {
			b = appendUint(b, uint64(w[2]))
		} else {
			b = append(b, root...)
		}
		nm.save(id, b)
	case spirv.OpTypeFloat:
		if len(w) < 3 {
			break
		}
		if len(w) > 3 {
			if s, ok := floatEncodingNames[spirv.FPEncoding(w[3])]; ok {
				nm.save(id, append(b, s...))
				break
			}
		}
		switch w[2] {
		case 16:
			b = append(b, "half"...)
		case 32:
			b = append(b, "float"...)
		case 64:
			b = append(b, "double"...)
		default:
			b = appendUint(append(b, "fp"...), uint64(w[2]))
		}
		nm.save(id, b)
	case spirv.OpTypeVector, spirv.OpTypeMatrix:
		if len(w) < 4 {
			break
		}
		if in.Opcode == spirv.OpTypeVector {
			b = append(b, 'v')
		} else {
			b = append(b, "mat"...)
		}
		b = appendUint(b, uint64(w[3]))
		nm.save(id, nm.appendName(b, w[2]))
	case spirv.OpTypeArray:
		if len(w) < 4 {
			break
		}
		b = nm.appendName(append(b, "_arr_"...), w[2])
		nm.save(id, nm.appendName(append(b, '_'), w[3]))
	case spirv.OpTypeRuntimeArray:
		if len(w) >= 3 {
			nm.save(id, nm.appendName(append(b, "_runtimearr_"...), w[2]))
		}
	case spirv.OpTypeNodePayloadArrayAMDX:
		if len(w) >= 3 {
			nm.save(id, nm.appendName(append(b, "_payloadarr_"...), w[2]))
		}
	case spirv.OpTypePointer:
		if len(w) < 4 {
			break
		}
		b = append(append(b, "_ptr_"...), enumName(spirv.OperandKindStorageClass, w[2])...)
		nm.save(id, nm.appendName(append(b, '_'), w[3]))
	case spirv.OpTypeUntypedPointerKHR:
		if len(w) >= 3 {
			nm.save(id, append(append(b, "_ptr_"...), enumName(spirv.OperandKindStorageClass, w[2])...))
		}
	case spirv.OpTypePipe:
		if len(w) >= 3 {
			nm.save(id, append(append(b, "Pipe"...), enumName(spirv.OperandKindAccessQualifier, w[2])...))
		}
	case spirv.OpTypeEvent:
		nm.save(id, append(b, "Event"...))
	case spirv.OpTypeDeviceEvent:
		nm.save(id, append(b, "DeviceEvent"...))
	case spirv.OpTypeReserveId:
		nm.save(id, append(b, "ReserveId"...))
	case spirv.OpTypeQueue:
		nm.save(id, append(b, "Queue"...))
	case spirv.OpTypeOpaque:
		b = append(b, "Opaque_"...)
		if len(in.Operands) >= 2 {
			b = appendString(b, in.OperandWords(1))
		}
		if len(b) == len("Opaque_") {
			b = append(b, '_') // Sanitize("") is "_"
		}
		nm.save(id, b)
	case spirv.OpTypePipeStorage:
		nm.save(id, append(b, "PipeStorage"...))
	case spirv.OpTypeNamedBarrier:
		nm.save(id, append(b, "NamedBarrier"...))
	case spirv.OpTypeStruct:
		nm.save(id, appendUint(append(b, "_struct_"...), uint64(id)))
	case spirv.OpConstantTrue:
		nm.save(id, append(b, "true"...))
	case spirv.OpConstantFalse:
		nm.save(id, append(b, "false"...))
	case spirv.OpConstant:
		if len(in.Operands) < 3 {
			break
		}
		b = append(nm.appendName(b, in.TypeID), '_')
		start := len(b)
		b = appendNumber(b, in.OperandWords(2), in.Operands[2].Number)
		for i := start; i < len(b); i++ {
			if b[i] == '-' {
				b[i] = 'n'
			}
		}
		nm.save(id, b)
	default:
		if id != 0 {
			nm.saveNumber(id)
		}
	}
	if cap(b) > cap(nm.buf) {
		nm.buf = b[:0]
	}
}

// appendString appends the nul-terminated string packed into words.
func appendString(b []byte, words []uint32) []byte { return spirv.AppendString(b, words) }
