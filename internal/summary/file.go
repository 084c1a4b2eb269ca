package summary

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// The lines that delimit benchkit's block in a summary file, and the one
// that carries its parts (gzipped JSON in base64, inside an HTML comment
// that Markdown does not show).
const (
	blockBegin = "<!-- benchkit summary: begin; rewritten as each package finishes, keep your own text outside it -->"
	blockEnd   = "<!-- benchkit summary: end -->"
	dataStart  = "<!-- benchkit summary data v1: "
	dataEnd    = " -->"
)

// Add adds parts to the summary at path, each replacing the part of the
// same package and shard the file held, and rewrites benchkit's block
// of the file from every part it now holds (Markdown): what the file
// holds outside the block is kept, a file without one gets it at its end.
// Several processes may add to one file at once: each rewrite holds a
// lock and replaces the file whole (see rewrite), so that the file
// always reads as one summary with every part once.
func Add(path string, parts ...Part) error {
	err := rewrite(path, func(old []byte) ([]byte, error) {
		before, have, after, err := split(old)
		if err != nil {
			return nil, err
		}
		for _, p := range parts {
			have = upsert(have, p)
		}
		var b bytes.Buffer
		b.Write(before)
		if len(before) > 0 && !bytes.HasSuffix(before, []byte("\n")) {
			b.WriteString("\n")
		}
		if err := writeBlock(&b, have); err != nil {
			return nil, err
		}
		b.Write(after)
		return b.Bytes(), nil
	})
	if err != nil {
		return fmt.Errorf("the summary %s: %w", path, err)
	}
	return nil
}

// Read returns the parts of the summary at path, as Add wrote them.
func Read(path string) ([]Part, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	_, parts, _, err := split(b)
	if err != nil {
		return nil, fmt.Errorf("the summary %s: %w", path, err)
	}
	return parts, nil
}

// same reports whether two parts are of one package and one shard.
func same(x, y Part) bool {
	return x.Package == y.Package && shardKey(x) == shardKey(y)
}

func shardKey(p Part) string {
	if p.Shard == nil {
		return ""
	}
	return fmt.Sprintf("%d/%d%v", p.Shard.K, p.Shard.N, p.Shard.Merged)
}

// upsert replaces the part of p's package and shard in parts, or appends
// p.
func upsert(parts []Part, p Part) []Part {
	if i := slices.IndexFunc(parts, func(q Part) bool { return same(p, q) }); i >= 0 {
		parts[i] = p
		return parts
	}
	return append(parts, p)
}

// split cuts a summary file into what precedes benchkit's block, the
// block's parts and what follows it; without a block, all of b precedes
// it.
func split(b []byte) (before []byte, parts []Part, after []byte, err error) {
	s := string(b)
	i := strings.Index(s, blockBegin)
	if i < 0 {
		return b, nil, nil, nil
	}
	j := strings.Index(s[i:], blockEnd)
	if j < 0 {
		return nil, nil, nil, fmt.Errorf("it holds benchkit's begin line and not its end line (%s): delete the block, or the file", blockEnd)
	}
	block := s[i : i+j]
	after = []byte(strings.TrimPrefix(s[i+j+len(blockEnd):], "\n"))
	data, ok := between(block, dataStart, dataEnd)
	if !ok {
		return nil, nil, nil, fmt.Errorf("benchkit's block has no data line (%s…): delete the block, or the file", dataStart)
	}
	if err := decodeJSON(data, &parts); err != nil {
		return nil, nil, nil, fmt.Errorf("benchkit's data line: %w; delete the block, or the file", err)
	}
	return b[:i], parts, after, nil
}

// writeBlock writes benchkit's block of parts: the begin line, the
// Markdown, the data line and the end line.
func writeBlock(w *bytes.Buffer, parts []Part) error {
	w.WriteString(blockBegin + "\n")
	if err := Markdown(w, parts); err != nil {
		return err
	}
	data, err := encodeJSON(parts)
	if err != nil {
		return err
	}
	w.WriteString("\n" + dataStart + data + dataEnd + "\n" + blockEnd + "\n")
	return nil
}

// encodeJSON returns v as JSON, gzipped, in base64: a line fit for an
// HTML comment.
func encodeJSON(v any) (string, error) {
	var z bytes.Buffer
	gw := gzip.NewWriter(&z)
	if err := json.NewEncoder(gw).Encode(v); err != nil {
		return "", err
	}
	if err := gw.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(z.Bytes()), nil
}

// decodeJSON reads what encodeJSON wrote into v.
func decodeJSON(data string, v any) error {
	z, err := base64.StdEncoding.DecodeString(strings.TrimSpace(data))
	if err != nil {
		return err
	}
	gr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return err
	}
	js, err := io.ReadAll(gr)
	if err != nil {
		return err
	}
	return json.Unmarshal(js, v)
}
