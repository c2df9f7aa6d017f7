// Package archive reads composite documents (RFC 822/MIME entities with
// multipart/* and message/* bodies, MHTML archives, and WARC and ARC files)
// and yields the documents they hold (an MHTML part, a WARC record's
// payload: [Document]), each with its kind, its bytes and its base layers,
// to a reader it does not choose: package extract reads each as it reads
// a file of that kind ([Message.Documents], [Message.RewriteDocuments],
// [ScanWARC]). The links of an HTTP Link header ([HeaderLinks]) and a 3xx
// response's redirect are the archive's own.
//
// The base of every body part follows the relative-URL draft's §3 layers
// as RFC 2557 §5 instantiates them for MIME, decided by package base: the
// part's own HTML <base> (§3.1), then its Base, Content-Base or
// Content-Location header (§3.2; a relative value is resolved against the
// enclosing base; a cid: label is no base), then the base of the enclosing
// multipart/* or message/* entity, recursively (§3.3), then the retrieval
// URL of the whole file (Chrome's Snapshot-Content-Location, or the one
// the caller gives), then the default: "thismessage:/" (RFC 2557 §5(e))
// or, on request, the draft's empty base (§3.4).
//
// References are matched to the parts of an archive as RFC 2557 §8 says:
// a resolved URL against each part's resolved Content-Location, and a cid:
// URL (RFC 2392) against Content-ID only.
//
// WARC files (WARC 1.0 and 1.1, ISO 28500) are read record by record from
// any io.Reader, streaming: plain files, per-record gzip members (WARC 1.1
// Annex D) or one gzip stream, and per-record zstd frames with an optional
// dictionary (the IIPC WARC-zstd convention). Damage is recovered from
// record by record (a corrupt member, a lying Content-Length, a malformed
// header, a payload over the bound) and reported as a [RecordError]; see
// [WARCReader] and [ScanWARC]. A compressed file can be decoded on a
// goroutine of its own, ahead of the parsing, into a bounded queue
// ([WARCReader.Pipeline], [Options.Pipelined]; a filter's standard input
// as a [Stream]). HTTP response payloads are de-chunked and decoded
// (gzip, deflate, br) with a fall-back to the bytes as stored when a
// header lies.
//
// The parsers are lenient where real producers are sloppy (unquoted
// parameters, LF-only line ends, missing closing boundaries, upper-case
// media types, angle-bracketed WARC target URIs) and bounded everywhere the
// input controls a size or a count: see [Limits].
package archive
