package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/cmd/relurl/internal/linkout"
)

// streamFlags are the flags of links for streams and cluster jobs: the
// kind and name of the input, the output's format and fields, and status
// lines in band.
type streamFlags struct {
	inputFormat string
	name        string
	status      bool
	onError     string
	counters    string // --counters: "" or "hadoop"
	fields      string
}

func addStreamFlags(fs *flag.FlagSet) *streamFlags {
	sf := new(streamFlags)
	fs.StringVar(&sf.inputFormat, "input-format", "auto", `the kind of every input: "auto" (files by name and content, standard input by its first bytes), "html", "mhtml", "warc" (.warc, .warc.gz, .warc.zst: told apart by content), "css", "xml" (SVG, Atom, RSS; also "svg", "atom", "rss"), "manifest", "module" (a JS module) or "wat" (WAT metadata records: their links, resolved against Head.Base, then WARC-Target-URI)`)
	fs.StringVar(&sf.name, "name", "", `the "file" field of standard input's links and statuses (default "-")`)
	fs.BoolVar(&sf.status, "status", false, `after each input, a status line {"status":"ok"|"error",...}; each record-level problem a {"status":"record-error",...} line where it happens`)
	fs.StringVar(&sf.onError, "on-error", "exit", `"exit": exit status 1 when an input failed or had record errors; "report": exit status 0 then (the statuses say what failed)`)
	fs.StringVar(&sf.counters, "counters", "", `"hadoop": after each input, its counts as Hadoop Streaming counter lines on stderr (reporter:counter:relurl,NAME,N)`)
	fs.StringVar(&sf.fields, "fields", "", "only these link fields, comma-separated, in this order (jsonl keys, tsv columns): "+strings.Join(linkout.FieldNames(), ", "))
	return sf
}

// mode validates the flags against --format (jsonl, text or tsv) and
// returns how links and statuses are written (its Stderr is the
// caller's to set).
func (sf *streamFlags) mode(format string) (linkout.Mode, error) {
	switch sf.inputFormat {
	case "auto", "html", "mhtml", "warc", "css", "xml", "svg", "atom", "rss", "manifest", "module", "wat":
	default:
		return linkout.Mode{}, fmt.Errorf(`--input-format is "auto", "html", "mhtml", "warc", "css", "xml", "manifest", "module" or "wat", not %q`, sf.inputFormat)
	}
	if sf.counters != "" && sf.counters != "hadoop" {
		return linkout.Mode{}, fmt.Errorf(`--counters is "hadoop", not %q`, sf.counters)
	}
	switch sf.onError {
	case "exit", "report":
	default:
		return linkout.Mode{}, fmt.Errorf(`--on-error is "exit" or "report", not %q`, sf.onError)
	}
	m, err := linkout.NewMode(format, sf.fields)
	m.Status, m.HadoopCounters = sf.status, sf.counters == "hadoop"
	return m, err
}

// kind returns the kind --input-format forces, or false for auto.
func (sf *streamFlags) kind() (base.Format, bool) {
	switch sf.inputFormat {
	case "html":
		return base.HTML, true
	case "mhtml":
		return base.MHTML, true
	case "warc":
		return base.WARC, true
	case "css":
		return base.CSS, true
	case "manifest":
		return base.Manifest, true
	case "module":
		return base.Module, true
	case "xml", "svg", "atom", "rss":
		return base.XML, true
	}
	return base.Other, false
}

// exitStatus is the exit status when failed inputs failed (or had record
// errors) and nothing else went wrong.
func (sf *streamFlags) exitStatus(failed int) int {
	if failed > 0 && sf.onError == "exit" {
		return exitFailure
	}
	return exitOK
}
