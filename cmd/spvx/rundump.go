package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"spvx/amber"
)

// This file holds amber's script-mode flags that need more than a switch:
// -p (parse only) and -b/-B (dump buffers after the run).

// dumpBuffer is one buffer -B names: its name as given, and its binding.
type dumpBuffer struct {
	name string
	key  amber.DescriptorBinding
}

// parseDumpBuffers reads -B's [SET:]BINDING values; none means amber's
// default, 0:0. amber also takes a pipeline name first; spvx's engine
// sees dispatches, not pipelines, so a name is refused with what to give.
func parseDumpBuffers(list []string) ([]dumpBuffer, error) {
	if len(list) == 0 {
		list = []string{"0:0"}
	}
	var out []dumpBuffer
	for _, v := range list {
		parts := strings.Split(v, ":")
		nums := make([]uint32, len(parts))
		for i, p := range parts {
			n, err := strconv.ParseUint(p, 10, 32)
			if err != nil {
				if len(parts) > 1 && i == 0 {
					return nil, fmt.Errorf("-B %s: spvx does not take a pipeline name; give [SET:]BINDING (dumped after the last RUN that binds it)", v)
				}
				return nil, fmt.Errorf("-B %s: want [SET:]BINDING", v)
			}
			nums[i] = uint32(n)
		}
		switch len(parts) {
		case 1:
			out = append(out, dumpBuffer{v, amber.DescriptorBinding{Binding: nums[0]}})
		case 2:
			out = append(out, dumpBuffer{v, amber.DescriptorBinding{Set: nums[0], Binding: nums[1]}})
		default:
			return nil, fmt.Errorf("-B %s: want [SET:]BINDING", v)
		}
	}
	return out, nil
}

// captureEngine runs dispatches on Engine and keeps, after each, a copy of
// the buffers -B names that the dispatch binds: after the script, each
// holds its contents as the last RUN binding it left them.
type captureEngine struct {
	amber.Engine
	want []dumpBuffer
	mu   sync.Mutex
	got  map[amber.DescriptorBinding][]byte
}

// Run runs job and copies the wanted buffers' bound ranges.
func (c *captureEngine) Run(ctx context.Context, job *amber.Job) error {
	err := c.Engine.Run(ctx, job)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.got == nil {
		c.got = map[amber.DescriptorBinding][]byte{}
	}
	for _, w := range c.want {
		if d := job.Descriptors[w.key]; d != nil && len(d.Views) > 0 {
			c.got[w.key] = append(c.got[w.key][:0], d.Views[0]...)
		}
	}
	return err
}

// dump returns the -b file as amber writes it: per buffer its name on a
// line, then its bytes as " xx" hex, sixteen to a line. A buffer no RUN
// bound gets a line saying so.
func (c *captureEngine) dump() []byte {
	var b bytes.Buffer
	for _, w := range c.want {
		fmt.Fprintln(&b, w.name)
		data, ok := c.got[w.key]
		if !ok {
			fmt.Fprintf(&b, "no RUN bound a buffer at descriptor set %d, binding %d\n", w.key.Set, w.key.Binding)
			continue
		}
		for i, v := range data {
			fmt.Fprintf(&b, " %02x", v)
			if i%16 == 15 {
				b.WriteByte('\n')
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// parseScripts is -p: parse each script and run nothing, as amber -p.
// A parse error is printed as amber prints it, FILE: message; a script
// that needs what spvx lacks parses, with a note.
func parseScripts(paths []string, stderr io.Writer) int {
	status := exitOK
	for _, p := range paths {
		_, err := amber.ParseFile(p)
		var pe *amber.Error
		switch {
		case err == nil:
		case errors.As(err, &pe) && pe.Unsupported:
			fmt.Fprintf(stderr, "%s: parses, but needs what spvx lacks: %s\n", termSafe(p, false), termSafe(pe.Msg, true))
		default:
			fmt.Fprintf(stderr, "%s\n", termSafe(err.Error(), true))
			status = exitRejected
		}
	}
	return status
}
