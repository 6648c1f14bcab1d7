package main

import (
	"fmt"
	"strings"
)

// A docCommand is one "$ " line (with its continuations) of a block.
type docCommand struct {
	line   int      // its line in the document
	words  []string // split as sh would
	status int      // from "# exit status N"
	want   []string // the expected output lines
}

// translateBlock turns the lines of one "$ " block, which starts at line
// first of doc, into a script.
func translateBlock(doc string, first int, block []string) (*docExample, error) {
	cmds, err := blockCommands(doc, first, block)
	if err != nil {
		return nil, err
	}
	ex := &docExample{
		name: fmt.Sprintf("%s_%d", strings.TrimSuffix(doc, ".md"), first),
		want: map[string]string{},
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "# %s, the example at line %d\n", doc, first)
	for _, c := range cmds {
		if err := ex.addCommand(&sb, doc, c); err != nil {
			return nil, err
		}
	}
	ex.script = sb.String()
	return ex, nil
}

// blockCommands splits a block into its commands and their outputs.
func blockCommands(doc string, first int, block []string) ([]*docCommand, error) {
	var cmds []*docCommand
	for i := 0; i < len(block); i++ {
		l := block[i]
		if !strings.HasPrefix(l, "$ ") {
			if len(cmds) == 0 {
				return nil, fmt.Errorf("%s:%d: output before the first \"$ \" command", doc, first+i)
			}
			c := cmds[len(cmds)-1]
			c.want = append(c.want, l)
			continue
		}
		c := &docCommand{line: first + i}
		text := strings.TrimPrefix(l, "$ ")
		for strings.HasSuffix(text, "\\") && i+1 < len(block) {
			i++
			text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(block[i])
		}
		words, comment, err := shellWords(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", doc, c.line, err)
		}
		if _, err := fmt.Sscanf(comment, "exit status %d", &c.status); err != nil {
			c.status = 0
		}
		c.words = words
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// shellWords splits a command line as sh does for quoting (no expansion),
// and returns the text of a trailing "#" comment.
func shellWords(s string) (words []string, comment string, err error) {
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case c == '#' && !inWord:
			return words, strings.TrimSpace(s[i+1:]), nil
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return nil, "", fmt.Errorf("unterminated %c quote", c)
			}
			w.WriteString(s[i+1 : i+1+end])
			i += 1 + end
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, "", nil
}

// quoteScript quotes a word for a testscript line.
func quoteScript(w string) string {
	return "'" + strings.ReplaceAll(w, "'", "''") + "'"
}

// addCommand appends the script lines of one command, a pipeline of
// programs with an optional "< FILE", and the check of its output.
func (ex *docExample) addCommand(sb *strings.Builder, doc string, c *docCommand) error {
	where := fmt.Sprintf("%s:%d", doc, c.line)
	if len(c.words) == 2 && c.words[0] == "cd" {
		return ex.addCd(sb, where, c)
	}
	if len(c.words) == 2 && c.words[0] == "mkdir" && len(c.want) == 0 {
		fmt.Fprintf(sb, "mkdir %s\n", quoteScript(c.words[1]))
		return nil
	}
	stages := splitPipeline(c.words)
	for i, st := range stages {
		prog, stdin, err := ex.program(where, st)
		if err != nil {
			return err
		}
		status := 0
		if i == len(stages)-1 {
			status = c.status
		}
		if i > 0 {
			sb.WriteString("cp stdout $WORK/.pipe\n")
			stdin = "$WORK/.pipe"
		}
		if stdin != "" {
			fmt.Fprintf(sb, "stdin %s\n", stdin)
		}
		fmt.Fprintf(sb, "exec-status %d %s\n", status, prog)
	}
	key := fmt.Sprintf("%s (%s)", where, strings.Join(c.words, " "))
	ex.want[key] = strings.Join(c.want, "\n") + "\n"
	if len(c.want) == 0 {
		ex.want[key] = ""
	}
	fmt.Fprintf(sb, "readme-output %s\n", quoteScript(key))
	return nil
}

// addCd translates "cd DIR"; ../shared is the shared reference folder.
func (ex *docExample) addCd(sb *strings.Builder, where string, c *docCommand) error {
	if len(c.want) > 0 {
		return fmt.Errorf("%s: cd prints nothing", where)
	}
	dir := c.words[1]
	if rest, ok := strings.CutPrefix(dir, "../shared"); ok {
		ex.shared = true
		dir = "$SHARED" + rest
	} else {
		dir = quoteScript(dir)
	}
	fmt.Fprintf(sb, "cd %s\n", dir)
	return nil
}

// splitPipeline splits words at "|".
func splitPipeline(words []string) [][]string {
	var out [][]string
	start := 0
	for i, w := range words {
		if w == "|" {
			out = append(out, words[start:i])
			start = i + 1
		}
	}
	return append(out, words[start:])
}

// program translates one stage of a pipeline into exec-status's PROG
// ARGS, and the FILE of its "< FILE".
func (ex *docExample) program(where string, words []string) (line, stdin string, err error) {
	if n := len(words); n >= 2 && words[n-2] == "<" {
		stdin, words = quoteScript(words[n-1]), words[:n-2]
	}
	var prog string
	var args []string
	switch {
	case len(words) >= 1 && words[0] == "spvx":
		prog, args = "spvx", words[1:]
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/spvx":
		prog, args = "spvx", words[3:]
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./examples/mkcheckpoint":
		prog, args, ex.mkckpt = "mkcheckpoint", words[3:], true
	default:
		return "", "", fmt.Errorf("%s: %q is not a command the README test runs (spvx, go run ./cmd/spvx, go run ./examples/mkcheckpoint, cd, mkdir)", where, strings.Join(words, " "))
	}
	for _, a := range args {
		if a == "<" || a == ">" || a == "|" {
			return "", "", fmt.Errorf("%s: %q: only a final \"< FILE\" and \"|\" between programs are supported", where, a)
		}
	}
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = quoteScript(a)
	}
	return strings.Join(append([]string{prog}, q...), " "), stdin, nil
}
