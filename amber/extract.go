package amber

import (
	"fmt"
	"strconv"
	"strings"
)

// BufferID names a buffer by where a pipeline binds it, as amber's -B
// does: [PIPELINE:][SET:]BINDING.
type BufferID struct {
	// Text is the ID as given; amber's buffer dump labels the buffer
	// with it.
	Text string
	// Pipeline is the pipeline's name; "" is the script's first pipeline.
	Pipeline     string
	Set, Binding uint32
}

// ParseBufferID reads [PIPELINE:][SET:]BINDING as amber's
// DescriptorSetAndBindingParser does: a pipeline name starts with a
// letter and runs to the first ':'; SET is 0 when only BINDING is given.
func ParseBufferID(s string) (BufferID, error) {
	id := BufferID{Text: s}
	rest := s
	if s != "" && isLetter(s[0]) {
		id.Pipeline, rest, _ = strings.Cut(s, ":")
	}
	nums := strings.Split(rest, ":")
	if rest == "" || len(nums) > 2 {
		return id, fmt.Errorf("invalid buffer id: %s (want [PIPELINE:][SET:]BINDING)", s)
	}
	vals := make([]uint32, len(nums))
	for i, n := range nums {
		v, err := strconv.ParseUint(n, 10, 32)
		if err != nil {
			return id, fmt.Errorf("invalid buffer id: %s: descriptor set and binding must be non-negative integers below 2^32, got %q", s, n)
		}
		vals[i] = uint32(v)
	}
	id.Binding = vals[len(vals)-1]
	if len(vals) == 2 {
		id.Set = vals[0]
	}
	return id, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Extraction is one buffer Options.Extract asked for, copied out when the
// script ended (after a failure too: the contents may tell why).
type Extraction struct {
	ID BufferID
	// Buffer is the name of the buffer the ID found.
	Buffer string
	// Data is the whole buffer as the script left it, as amber's
	// Amber::ExecuteWithShaderData copies it (not just the bound range).
	Data []byte
	// Err says why there is no Data: no such pipeline, nothing bound
	// there, or the script did not run.
	Err error
}

// extract copies out the buffers opt.Extract names, from the runner's
// buffers as the script left them.
func (r *runner) extract() []Extraction {
	out := make([]Extraction, 0, len(r.opt.Extract))
	for _, id := range r.opt.Extract {
		out = append(out, r.extractOne(id))
	}
	return out
}

func (r *runner) extractOne(id BufferID) Extraction {
	x := Extraction{ID: id}
	pl := r.s.pipelines[id.Pipeline]
	switch {
	case id.Pipeline == "" && len(r.s.Pipelines) > 0:
		pl = r.s.Pipelines[0]
	case id.Pipeline == "":
		x.Err = fmt.Errorf("%s declares no pipeline", r.s.Path)
		return x
	case pl == nil:
		x.Err = fmt.Errorf("%s has no pipeline %q", r.s.Path, id.Pipeline)
		return x
	}
	bb := pl.binding(id.Set, id.Binding)
	if bb == nil || len(bb.Buffers) == 0 {
		x.Err = fmt.Errorf("pipeline %s binds no buffer at descriptor set %d, binding %d", pl.Name, id.Set, id.Binding)
		return x
	}
	// A BUFFER_ARRAY's first buffer, as amber's GetBufferForBinding.
	b := bb.Buffers[0]
	data := b.Data // as declared, when the script failed before making its buffers
	if rb := r.bufs[b]; rb != nil {
		data = rb.data
	}
	x.Buffer, x.Data = b.Name, append([]byte(nil), data...)
	return x
}

// notRun fills the extractions of a script that ended before it ran.
func notRun(ids []BufferID, why string) []Extraction {
	if len(ids) == 0 {
		return nil
	}
	out := make([]Extraction, len(ids))
	for i, id := range ids {
		out[i] = Extraction{ID: id, Err: fmt.Errorf("the script did not run: %s", why)}
	}
	return out
}
