// Copyright 2010 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package token is a copy of golang.org/x/net/html's Tokenizer
// (html/token.go of golang.org/x/net v0.62.0, BSD-3-Clause, see LICENSE).
// It exists because package htmlrewrite needs two things x/net's does not
// give:
//
//   - speed: the rewriter must be at least as fast as a plain x/net
//     tokenize-and-copy pass, which a rewriter on top of that very pass
//     cannot be. Here text, raw text, script data and quoted attribute
//     values are skipped with bytes.IndexByte instead of a call per byte,
//     and duplicate attributes are found without a map and a lower-cased
//     copy of every name;
//   - the attribute spans: x/net keeps them private, and TagAttr copies,
//     lower-cases and unescapes every key and value. Tag hands over their
//     offsets in Raw, so a value is spliced in place.
//
// It splits any input into the same tokens, with the same raw bytes, tag
// names, attributes and errors, as x/net's: the tests compare the two on
// every html5lib tokenizer input, on corpus A when RELURL_CORPUS_A is set,
// and on fuzzed input, read whole, a byte and half a buffer at a time.
// Only what the rewriter calls is kept (Next, Raw, Tag, Err, Buffered,
// AllowCDATA, NextIsNotRawText, SetMaxBuf); a fix to x/net's tokenizer
// must be carried over by hand.
package token

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strconv"
)

// A TokenType is the type of a Token.
type TokenType uint32

const (
	// ErrorToken means that an error occurred during tokenization.
	ErrorToken TokenType = iota
	// TextToken means a text node.
	TextToken
	// A StartTagToken looks like <a>.
	StartTagToken
	// An EndTagToken looks like </a>.
	EndTagToken
	// A SelfClosingTagToken tag looks like <br/>.
	SelfClosingTagToken
	// A CommentToken looks like <!--x-->.
	CommentToken
	// A DoctypeToken looks like <!DOCTYPE x>
	DoctypeToken
)

// ErrBufferExceeded means that the buffering limit was exceeded.
var ErrBufferExceeded = errors.New("max buffer exceeded")

// String returns a string representation of the TokenType.
func (t TokenType) String() string {
	switch t {
	case ErrorToken:
		return "Error"
	case TextToken:
		return "Text"
	case StartTagToken:
		return "StartTag"
	case EndTagToken:
		return "EndTag"
	case SelfClosingTagToken:
		return "SelfClosingTag"
	case CommentToken:
		return "Comment"
	case DoctypeToken:
		return "Doctype"
	}
	return "Invalid(" + strconv.Itoa(int(t)) + ")"
}

// span is a range of bytes in a Tokenizer's buffer. The start is inclusive,
// the end is exclusive.
type span struct {
	start, end int
}

// A Tokenizer returns a stream of HTML Tokens.
type Tokenizer struct {
	// r is the source of the HTML text.
	r io.Reader
	// tt is the TokenType of the current token.
	tt TokenType
	// err is the first error encountered during tokenization. It is possible
	// for tt != Error && err != nil to hold: this means that Next returned a
	// valid token but the subsequent Next call will return an error token.
	// For example, if the HTML text input was just "plain", then the first
	// Next call would set z.err to io.EOF but return a TextToken, and all
	// subsequent Next calls would return an ErrorToken.
	// err is never reset. Once it becomes non-nil, it stays non-nil.
	err error
	// readErr is the error returned by the io.Reader r. It is separate from
	// err because it is valid for an io.Reader to return (n int, err1 error)
	// such that n > 0 && err1 != nil, and callers should always process the
	// n > 0 bytes before considering the error err1.
	readErr error
	// buf[raw.start:raw.end] holds the raw bytes of the current token.
	// buf[raw.end:] is buffered input that will yield future tokens.
	raw span
	buf []byte
	// lim is where readByte's fast path stops: the end of buf, or the
	// byte that reaches maxBuf (see setLim).
	lim int
	// maxBuf limits the data buffered in buf. A value of 0 means unlimited.
	// room is maxBuf-1, or never without a limit: a token's bytes from
	// raw.start+room on are past the limit.
	maxBuf int
	room   int
	// buf[data.start:data.end] holds the raw bytes of the current token's data:
	// a text token's text, a tag token's tag name, etc.
	data span
	// pendingAttr is the attribute key and value currently being tokenized.
	// When complete, pendingAttr is pushed onto attr.
	pendingAttr [2]span
	attr        [][2]span
	attrNames   map[string]bool
	attrCut     bool   // the tag has more than MaxAttrs attributes: attr holds the first ones
	attrMap     bool   // attrNames holds the names of attr
	keyBits     uint64 // keyBit of each name in attr (see seenKey)
	// nameUpper: the current tag's name may hold an ASCII upper-case
	// letter (see NameLower).
	nameUpper bool
	// rawTag is the "script" in "</script>" that closes the next token. If
	// non-empty, the subsequent call to Next will return a raw or RCDATA text
	// token: one that treats "<p>" as text instead of an element.
	// rawTag's contents are lower-cased.
	rawTag string
	// textIsRaw is whether the current text token's data is not escaped.
	textIsRaw bool
	// convertNUL is whether NUL bytes in the current token's data should
	// be converted into \ufffd replacement characters.
	convertNUL bool
	// allowCDATA is whether CDATA sections are allowed in the current context.
	allowCDATA bool
	// chunk, when positive, splits text, raw text, script data and
	// comments into tokens of about that many bytes (see SetChunk); resume
	// says what the next token continues, script the script data state.
	chunk  int
	resume resumeState
	script scriptState
	// hold keeps the next raw text or script data whole (see HoldRawText).
	hold bool
	// styleSplit, when set, says where a <style> element's raw text may
	// be split (SetStyleSplit); reach is how far past the chunk size the
	// current raw text token reads before it next asks (or, for a
	// <style> with no styleSplit, not at all).
	styleSplit func(data []byte) int
	reach      int
	// fullLen is the length at which the current token is full: chunk +
	// reach, or never without a chunk size or with hold (see setFull).
	fullLen int
	// buf[passStart:passEnd] is the run of passed tokens not yet handed
	// to passFn (see Pass); passEnd == 0: none.
	passStart, passEnd int
	passFn             func([]byte)
	// passText: text before a tag or comment is passed, not returned
	// (SetPassText); before is the length of the text passed that way
	// just before the current token.
	passText bool
	before   int
	// scanned counts the bytes skip looked at (tests: the tokenizer's
	// scanning stays linear in the input).
	scanned int
}

// resumeState is the token a split one continues as.
type resumeState uint8

const (
	resumeNone    resumeState = iota
	resumeComment             // a comment's data
	resumeBogus               // a bogus comment's data, up to ">"
)

// scriptState is where in the script data states a split script
// continues.
type scriptState uint8

const (
	inScriptData scriptState = iota
	inScriptDataEscaped
	inScriptDataDoubleEscaped
)

// SetChunk makes the tokenizer split a text token, the raw text of an
// element other than <style>, script data and a comment once it has read
// n bytes of it (0: never), at a point where the tokenizer's state is
// kept whole, so that the tokens' raw bytes still partition the input
// and only a tag needs holding in memory. The pieces of a split token
// come as tokens of the same type; their data spans are their own raw
// bytes past the token's opening ("<!--" starts only the first piece of
// a comment, "-->" ends only the last).
func (z *Tokenizer) SetChunk(n int) {
	z.chunk = n
	z.setFull()
}

// never is a length no token reaches (fullLen, room).
const never = math.MaxInt / 4

// setFull sets fullLen from chunk, hold and reach, after any of them
// changed: full() and skip compare with it alone, once per token or skip
// where they tested all three.
func (z *Tokenizer) setFull() {
	z.fullLen = never
	if z.chunk > 0 && !z.hold {
		z.fullLen = min(z.chunk+z.reach, never)
	}
}

// SetStyleSplit makes the tokenizer split the raw text of a <style>
// element too, once it has read the chunk size (SetChunk) of it, where
// split says: split(data) is the length of the longest prefix of data,
// the element's raw text read so far in this piece, after which the text
// may be cut (for CSS: after a ";", "{" or "}" outside any comment,
// string, url() and parentheses), or 0 when there is none yet; the
// tokenizer then reads on to twice the length before it asks again, up
// to SetMaxBuf. Without it a <style> sheet comes whole.
func (z *Tokenizer) SetStyleSplit(split func(data []byte) int) {
	z.styleSplit = split
}

// SetPass sets the function that receives the raw bytes of the tokens
// passed with Pass; it must be called before Pass.
func (z *Tokenizer) SetPass(fn func(raw []byte)) {
	z.passFn = fn
}

// SetPassText makes Next pass (see Pass) the text before a tag, a
// comment or a doctype instead of returning it as a TextToken, for a
// caller that would pass every such token: the tag's token comes in the
// same call. Raw text (script data, <style>, <title>, ...), the text
// split at the chunk size and the text before the end of the input are
// still returned. Before says how many bytes were passed so. SetPass
// must have been called.
func (z *Tokenizer) SetPassText(on bool) {
	z.passText = on
}

// Before returns the length of the text Next passed before the current
// token (see SetPassText): its raw bytes start that much after the
// previous token's end.
func (z *Tokenizer) Before() int {
	return z.before
}

// Pass adds the current token to the run of passed tokens: tokens whose
// raw bytes the caller takes as they are. The run is handed to the
// function given to SetPass in one call, in order, when Flush is called
// and before the buffer's bytes move; a caller that passes most tokens
// thus makes one call per buffer instead of one per token. Pass must be
// called before the next call to Next.
func (z *Tokenizer) Pass() {
	if z.passEnd != z.raw.start || z.passEnd == 0 {
		z.newRun()
	}
	z.passEnd = z.raw.end
}

// newRun starts a run at the current token: the tokens passed before it,
// if any, are not adjacent (a token in between was not passed).
func (z *Tokenizer) newRun() {
	z.Flush()
	z.passStart = z.raw.start
}

// Pending returns the run of passed tokens not yet handed to the pass
// function (nil: none), without handing it: valid until the next call
// to Next or Flush. A caller that only reads the bytes before a token
// (counts their lines) need not end the run.
func (z *Tokenizer) Pending() []byte {
	if z.passEnd > z.passStart {
		return z.buf[z.passStart:z.passEnd]
	}
	return nil
}

// Flush hands the run of passed tokens, if any, to the pass function. A
// caller that uses the bytes of a token it does not pass (writes them,
// counts their lines) must call Flush first.
func (z *Tokenizer) Flush() {
	if z.passEnd > z.passStart {
		z.passFn(z.buf[z.passStart:z.passEnd])
	}
	z.passStart, z.passEnd = 0, 0
}

// HoldRawText makes the raw text or script data that follows the start
// tag just read come as one token, not split by SetChunk (as <style>'s
// always does): for a caller that reads it whole, bounded by SetMaxBuf.
// It does nothing when no raw text follows.
func (z *Tokenizer) HoldRawText() {
	z.hold = z.rawTag != ""
	z.setFull()
}

// full reports whether the current token has reached the chunk size.
func (z *Tokenizer) full() bool {
	return z.raw.end-z.raw.start >= z.fullLen
}

// AllowCDATA sets whether or not the tokenizer recognizes <![CDATA[foo]]> as
// the text "foo". The default value is false, which means to recognize it as
// a bogus comment "<!-- [CDATA[foo]] -->" instead.
//
// Strictly speaking, an HTML5 compliant tokenizer should allow CDATA if and
// only if tokenizing foreign content, such as MathML and SVG. However,
// tracking foreign-contentness is difficult to do purely in the tokenizer,
// as opposed to the parser, due to HTML integration points: an <svg> element
// can contain a <foreignObject> that is foreign-to-SVG but not foreign-to-
// HTML. For strict compliance with the HTML5 tokenization algorithm, it is the
// responsibility of the user of a tokenizer to call AllowCDATA as appropriate.
// In practice, if using the tokenizer without caring whether MathML or SVG
// CDATA is text or comments, such as tokenizing HTML to find all the anchor
// text, it is acceptable to ignore this responsibility.
func (z *Tokenizer) AllowCDATA(allowCDATA bool) {
	z.allowCDATA = allowCDATA
}

// NextIsNotRawText instructs the tokenizer that the next token should not be
// considered as 'raw text'. Some elements, such as script and title elements,
// normally require the next token after the opening tag to be 'raw text' that
// has no child elements. For example, tokenizing "<title>a<b>c</b>d</title>"
// yields a start tag token for "<title>", a text token for "a<b>c</b>d", and
// an end tag token for "</title>". There are no distinct start tag or end tag
// tokens for the "<b>" and "</b>".
//
// This tokenizer implementation will generally look for raw text at the right
// times. Strictly speaking, an HTML5 compliant tokenizer should not look for
// raw text if in foreign content: <title> generally needs raw text, but a
// <title> inside an <svg> does not. Another example is that a <textarea>
// generally needs raw text, but a <textarea> is not allowed as an immediate
// child of a <select>; in normal parsing, a <textarea> implies </select>, but
// one cannot close the implicit element when parsing a <select>'s InnerHTML.
// Similarly to AllowCDATA, tracking the correct moment to override raw-text-
// ness is difficult to do purely in the tokenizer, as opposed to the parser.
// For strict compliance with the HTML5 tokenization algorithm, it is the
// responsibility of the user of a tokenizer to call NextIsNotRawText as
// appropriate. In practice, like AllowCDATA, it is acceptable to ignore this
// responsibility for basic usage.
//
// Note that this 'raw text' concept is different from the one offered by the
// Tokenizer.Raw method.
func (z *Tokenizer) NextIsNotRawText() {
	z.rawTag = ""
}

// Err returns the error associated with the most recent ErrorToken token.
// This is typically io.EOF, meaning the end of tokenization.
func (z *Tokenizer) Err() error {
	if z.tt != ErrorToken {
		return nil
	}
	return z.err
}

// readByte returns the next byte from the input stream, doing a buffered read
// from z.r into z.buf if necessary. z.buf[z.raw.start:z.raw.end] remains a contiguous byte
// slice that holds all the bytes read so far for the current token.
// It sets z.err if the underlying reader returns an error.
// Pre-condition: z.err == nil.
func (z *Tokenizer) readByte() byte {
	// The common case is a buffered byte within the limit;
	// readByteSlow refills the buffer and enforces maxBuf.
	if z.raw.end >= z.lim {
		return z.readByteSlow()
	}
	c := z.buf[z.raw.end]
	z.raw.end++
	return c
}

// setLim sets lim for the current token, buffer and maxBuf.
func (z *Tokenizer) setLim() {
	z.lim = min(len(z.buf), z.raw.start+z.room)
}

// readByteSlow is readByte when the buffer is exhausted or the next byte
// reaches maxBuf.
func (z *Tokenizer) readByteSlow() byte {
	if z.raw.end >= len(z.buf) {
		// Our buffer is exhausted and we have to read from z.r. Check if the
		// previous read resulted in an error.
		z.Flush() // the passed tokens' bytes are about to move
		if z.readErr != nil {
			z.err = z.readErr
			return 0
		}
		// We copy z.buf[z.raw.start:z.raw.end] to the beginning of z.buf. If the length
		// z.raw.end - z.raw.start is more than half the capacity of z.buf, then we
		// allocate a new buffer before the copy.
		c := cap(z.buf)
		d := z.raw.end - z.raw.start
		var buf1 []byte
		if 2*d > c {
			buf1 = make([]byte, d, 2*c)
		} else {
			buf1 = z.buf[:d]
		}
		copy(buf1, z.buf[z.raw.start:z.raw.end])
		if x := z.raw.start; x != 0 {
			// Adjust the data/attr spans to refer to the same contents after the copy.
			z.data.start -= x
			z.data.end -= x
			z.pendingAttr[0].start -= x
			z.pendingAttr[0].end -= x
			z.pendingAttr[1].start -= x
			z.pendingAttr[1].end -= x
			for i := range z.attr {
				z.attr[i][0].start -= x
				z.attr[i][0].end -= x
				z.attr[i][1].start -= x
				z.attr[i][1].end -= x
			}
		}
		z.raw.start, z.raw.end, z.buf = 0, d, buf1[:d]
		z.setLim()
		// Now that we have copied the live bytes to the start of the buffer,
		// we read from z.r into the remainder.
		var n int
		n, z.readErr = readAtLeastOneByte(z.r, buf1[d:cap(buf1)])
		if n == 0 {
			z.err = z.readErr
			return 0
		}
		z.buf = buf1[:d+n]
		z.setLim()
	}
	x := z.buf[z.raw.end]
	z.raw.end++
	if z.maxBuf > 0 && z.raw.end-z.raw.start >= z.maxBuf {
		z.err = ErrBufferExceeded
		return 0
	}
	return x
}

// Buffered returns a slice containing data buffered but not yet tokenized.
func (z *Tokenizer) Buffered() []byte {
	return z.buf[z.raw.end:]
}

// readAtLeastOneByte wraps an io.Reader so that reading cannot return (0, nil).
// It returns io.ErrNoProgress if the underlying r.Read method returns (0, nil)
// too many times in succession.
func readAtLeastOneByte(r io.Reader, b []byte) (int, error) {
	for i := 0; i < 100; i++ {
		if n, err := r.Read(b); n != 0 || err != nil {
			return n, err
		}
	}
	return 0, io.ErrNoProgress
}

// skipWhiteSpace skips past any white space.
func (z *Tokenizer) skipWhiteSpace() {
	if z.err != nil {
		return
	}
	for {
		c := z.readByte()
		if z.err != nil {
			return
		}
		switch c {
		case ' ', '\n', '\r', '\t', '\f':
			// No-op.
		default:
			z.raw.end--
			return
		}
	}
}

// readRawOrRCDATA reads until the next "</foo>", where "foo" is z.rawTag and
// is typically something like "script" or "textarea".
func (z *Tokenizer) readRawOrRCDATA() {
	if z.rawTag == "script" {
		if z.readScript() {
			z.rawTag = ""
		}
		z.textIsRaw = true
		return
	}
	split := false
loop:
	for {
		if z.skipTo('<'); z.err != nil {
			break loop
		}
		if z.full() {
			if z.rawTag != "style" {
				split = true
				break loop
			}
			if n := z.styleSplit(z.buf[z.data.start:z.raw.end]); n > 0 {
				z.raw.end = z.data.start + n
				split = true
				break loop
			}
			// No place to cut yet: ask again at twice the length (the
			// length doubles, so that the sheet is scanned a bounded
			// number of times over, not once per chunk).
			z.reach = 2*(z.raw.end-z.raw.start) - z.chunk
			z.setFull()
		}
		c := z.readByte()
		if z.err != nil {
			break loop
		}
		if c != '<' {
			continue loop
		}
		c = z.readByte()
		if z.err != nil {
			break loop
		}
		if c != '/' {
			z.raw.end--
			continue loop
		}
		if z.readRawEndTag() || z.err != nil {
			break loop
		}
	}
	z.data.end = z.raw.end
	// A textarea's or title's RCDATA can contain escaped entities.
	z.textIsRaw = z.rawTag != "textarea" && z.rawTag != "title"
	if !split {
		z.rawTag = ""
	}
}

// readRawEndTag attempts to read a tag like "</foo>", where "foo" is z.rawTag.
// If it succeeds, it backs up the input position to reconsume the tag and
// returns true. Otherwise it returns false. The opening "</" has already been
// consumed.
func (z *Tokenizer) readRawEndTag() bool {
	for i := 0; i < len(z.rawTag); i++ {
		c := z.readByte()
		if z.err != nil {
			return false
		}
		if c != z.rawTag[i] && c != z.rawTag[i]-('a'-'A') {
			z.raw.end--
			return false
		}
	}
	c := z.readByte()
	if z.err != nil {
		return false
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		// The 3 is 2 for the leading "</" plus 1 for the trailing character c.
		z.raw.end -= 3 + len(z.rawTag)
		return true
	}
	z.raw.end--
	return false
}

// readScript reads until the next </script> tag, following the byzantine
// rules for escaping/hiding the closing tag. It reports whether it got
// there: false when it split the script data (see SetChunk), z.script
// then saying in which state to go on.
func (z *Tokenizer) readScript() (done bool) {
	defer func() {
		z.data.end = z.raw.end
	}()
	var c byte
	switch st := z.script; {
	case st == inScriptDataEscaped:
		z.script = inScriptData
		goto scriptDataEscaped
	case st == inScriptDataDoubleEscaped:
		z.script = inScriptData
		goto scriptDataDoubleEscaped
	}

scriptData:
	if z.full() {
		z.script = inScriptData
		return false
	}
	if z.skipTo('<'); z.err != nil {
		return true
	}
	c = z.readByte()
	if z.err != nil {
		return true
	}
	if c == '<' {
		goto scriptDataLessThanSign
	}
	goto scriptData

scriptDataLessThanSign:
	c = z.readByte()
	if z.err != nil {
		return true
	}
	switch c {
	case '/':
		goto scriptDataEndTagOpen
	case '!':
		goto scriptDataEscapeStart
	}
	z.raw.end--
	goto scriptData

scriptDataEndTagOpen:
	if z.readRawEndTag() || z.err != nil {
		return true
	}
	goto scriptData

scriptDataEscapeStart:
	c = z.readByte()
	if z.err != nil {
		return true
	}
	if c == '-' {
		goto scriptDataEscapeStartDash
	}
	z.raw.end--
	goto scriptData

scriptDataEscapeStartDash:
	c = z.readByte()
	if z.err != nil {
		return true
	}
	if c == '-' {
		goto scriptDataEscapedDashDash
	}
	z.raw.end--
	goto scriptData

scriptDataEscaped:
	z.skipEscaped()
	if z.full() {
		z.script = inScriptDataEscaped
		return false
	}
	c = z.readByte()
	if z.err != nil {
		return true
	}
	switch c {
	case '-':
		goto scriptDataEscapedDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDash:
	c = z.readByte()
	if z.err != nil {
		return true
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDashDash:
	c = z.readByte()
	if z.err != nil {
		return true
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataEscaped

scriptDataEscapedLessThanSign:
	c = z.readByte()
	if z.err != nil {
		return true
	}
	if c == '/' {
		goto scriptDataEscapedEndTagOpen
	}
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
		goto scriptDataDoubleEscapeStart
	}
	z.raw.end--
	goto scriptData

scriptDataEscapedEndTagOpen:
	if z.readRawEndTag() || z.err != nil {
		return true
	}
	goto scriptDataEscaped

scriptDataDoubleEscapeStart:
	z.raw.end--
	for i := 0; i < len("script"); i++ {
		c = z.readByte()
		if z.err != nil {
			return true
		}
		if c != "script"[i] && c != "SCRIPT"[i] {
			z.raw.end--
			goto scriptDataEscaped
		}
	}
	c = z.readByte()
	if z.err != nil {
		return true
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		goto scriptDataDoubleEscaped
	}
	z.raw.end--
	goto scriptDataEscaped

scriptDataDoubleEscaped:
	if z.full() {
		z.script = inScriptDataDoubleEscaped
		return false
	}
	c = z.readByte()
	if z.err != nil {
		return true
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDash:
	c = z.readByte()
	if z.err != nil {
		return true
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDashDash:
	c = z.readByte()
	if z.err != nil {
		return true
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedLessThanSign:
	c = z.readByte()
	if z.err != nil {
		return true
	}
	if c == '/' {
		goto scriptDataDoubleEscapeEnd
	}
	z.raw.end--
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapeEnd:
	if z.readRawEndTag() {
		z.raw.end += len("</script>")
		goto scriptDataEscaped
	}
	if z.err != nil {
		return true
	}
	goto scriptDataDoubleEscaped
}

// readComment reads the next comment token starting with "<!--". The opening
// "<!--" has already been consumed.
func (z *Tokenizer) readComment() { z.readCommentFrom(true) }

// readCommentFrom reads a comment's data; beginning is false when it goes
// on with a split comment.
func (z *Tokenizer) readCommentFrom(beginning bool) {
	// When modifying this function, consider manually increasing the
	// maxSuffixLen constant in func TestComments, from 6 to e.g. 9 or more.
	// That increase should only be temporary, not committed, as it
	// exponentially affects the test running time.

	z.data.start = z.raw.end
	defer func() {
		if z.data.end < z.data.start {
			// It's a comment with no data, like <!-->.
			z.data.end = z.data.start
		}
	}()

	var dashCount int
	for {
		if dashCount == 0 && !beginning {
			// Bytes other than "-", ">" and "!" leave the state as it
			// is: skip them, up to where a split may come.
			end := z.lim
			if z.chunk > 0 {
				end = min(end, z.raw.start+z.chunk)
			}
			if z.raw.end < end {
				z.raw.end = skipPast(z.buf[:end], z.raw.end, &commentStop)
			}
			if z.full() {
				z.data.end = z.raw.end
				z.resume = resumeComment
				return
			}
		}
		c := z.readByte()
		if z.err != nil {
			z.data.end = z.calculateAbruptCommentDataEnd()
			return
		}
		switch c {
		case '-':
			dashCount++
			continue
		case '>':
			if dashCount >= 2 || beginning {
				z.data.end = z.raw.end - len("-->")
				return
			}
		case '!':
			if dashCount >= 2 {
				c = z.readByte()
				if z.err != nil {
					z.data.end = z.calculateAbruptCommentDataEnd()
					return
				} else if c == '>' {
					z.data.end = z.raw.end - len("--!>")
					return
				} else if c == '-' {
					dashCount = 1
					beginning = false
					continue
				}
			}
		}
		dashCount = 0
		beginning = false
	}
}

func (z *Tokenizer) calculateAbruptCommentDataEnd() int {
	raw := z.Raw()
	const prefixLen = len("<!--")
	if len(raw) >= prefixLen {
		raw = raw[prefixLen:]
		if hasSuffix(raw, "--!") {
			return z.raw.end - 3
		} else if hasSuffix(raw, "--") {
			return z.raw.end - 2
		} else if hasSuffix(raw, "-") {
			return z.raw.end - 1
		}
	}
	return z.raw.end
}

func hasSuffix(b []byte, suffix string) bool {
	if len(b) < len(suffix) {
		return false
	}
	b = b[len(b)-len(suffix):]
	for i := range b {
		if b[i] != suffix[i] {
			return false
		}
	}
	return true
}

// readUntilCloseAngle reads until the next ">".
func (z *Tokenizer) readUntilCloseAngle() {
	z.data.start = z.raw.end
	for {
		if z.full() {
			z.data.end = z.raw.end
			z.resume = resumeBogus
			return
		}
		c := z.readByte()
		if z.err != nil {
			z.data.end = z.raw.end
			return
		}
		if c == '>' {
			z.data.end = z.raw.end - len(">")
			return
		}
	}
}

// readMarkupDeclaration reads the next token starting with "<!". It might be
// a "<!--comment-->", a "<!DOCTYPE foo>", a "<![CDATA[section]]>" or
// "<!a bogus comment". The opening "<!" has already been consumed.
func (z *Tokenizer) readMarkupDeclaration() TokenType {
	z.data.start = z.raw.end
	var c [2]byte
	for i := 0; i < 2; i++ {
		c[i] = z.readByte()
		if z.err != nil {
			// bogus comment
			z.data.end = z.raw.end
			if i == 1 && c[0] == '>' {
				z.data.end--
			}
			return CommentToken
		}
	}
	if c[0] == '-' && c[1] == '-' {
		z.readComment()
		return CommentToken
	}
	z.raw.end -= 2
	if z.readDoctype() {
		return DoctypeToken
	}
	if z.allowCDATA && z.readCDATA() {
		z.convertNUL = true
		return TextToken
	}
	// It's a bogus comment.
	z.readUntilCloseAngle()
	return CommentToken
}

// readDoctype attempts to read a doctype declaration and returns true if
// successful. The opening "<!" has already been consumed.
func (z *Tokenizer) readDoctype() bool {
	const s = "DOCTYPE"
	for i := 0; i < len(s); i++ {
		c := z.readByte()
		if z.err != nil {
			if z.err == io.EOF {
				// Back up to read the fragment of "DOCTYPE" again, reset
				// z.err to signal EOF on the next call
				z.raw.end = z.data.start
				z.err = nil
				return false
			}
			z.data.end = z.raw.end
			return false
		}
		if c != s[i] && c != s[i]+('a'-'A') {
			// Back up to read the fragment of "DOCTYPE" again.
			z.raw.end = z.data.start
			return false
		}
	}
	if z.skipWhiteSpace(); z.err != nil {
		z.data.start = z.raw.end
		z.data.end = z.raw.end
		return true
	}
	z.readUntilCloseAngle()
	return true
}

// readCDATA attempts to read a CDATA section and returns true if
// successful. The opening "<!" has already been consumed.
func (z *Tokenizer) readCDATA() bool {
	const s = "[CDATA["
	for i := 0; i < len(s); i++ {
		c := z.readByte()
		if z.err != nil {
			if z.err == io.EOF {
				// Back up to read the fragment of "[CDATA[" again, reset
				// z.err to signal EOF on the next call
				z.raw.end = z.data.start
				z.err = nil
				return false
			}
			z.data.end = z.raw.end
			return false
		}
		if c != s[i] {
			// Back up to read the fragment of "[CDATA[" again.
			z.raw.end = z.data.start
			return false
		}
	}
	z.data.start = z.raw.end
	brackets := 0
	for {
		c := z.readByte()
		if z.err != nil {
			z.data.end = z.raw.end
			return true
		}
		switch c {
		case ']':
			brackets++
		case '>':
			if brackets >= 2 {
				z.data.end = z.raw.end - len("]]>")
				return true
			}
			brackets = 0
		default:
			brackets = 0
		}
	}
}

// startTagIn returns the element of ss the start tag in
// z.buf[z.data.start:z.data.end] case-insensitively matches, or "".
func (z *Tokenizer) startTagIn(ss ...string) string {
loop:
	for _, s := range ss {
		if z.data.end-z.data.start != len(s) {
			continue loop
		}
		for i := 0; i < len(s); i++ {
			c := z.buf[z.data.start+i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != s[i] {
				continue loop
			}
		}
		return s
	}
	return ""
}

// readStartTag reads the next start tag token. The opening "<a" has already
// been consumed, where 'a' means anything in [A-Za-z].
func (z *Tokenizer) readStartTag() TokenType {
	z.forgetAttrs() // readTag(true), written out
	if !z.readTagBuffered(true) {
		z.readTagSlow(true)
	}
	if z.err != nil {
		return ErrorToken
	}
	// Several tags flag the tokenizer's next token as raw.
	c := z.buf[z.data.start]
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	// rawTag is the name matched, lower-cased: the constant, where x/net
	// allocates its lower-cased copy of the name.
	var raw string
	switch c {
	case 'i':
		raw = z.startTagIn("iframe")
	case 'n':
		raw = z.startTagIn("noembed", "noframes", "noscript")
	case 'p':
		raw = z.startTagIn("plaintext")
	case 's':
		raw = z.startTagIn("script", "style")
	case 't':
		raw = z.startTagIn("textarea", "title")
	case 'x':
		raw = z.startTagIn("xmp")
	}
	if raw != "" {
		z.rawTag = raw
	}
	// Look for a self-closing token (e.g. <br/>).
	//
	// Originally, we did this by just checking that the last character of the
	// tag (ignoring the closing bracket) was a solidus (/) character, but this
	// is not always accurate.
	//
	// We need to be careful that we don't misinterpret a non-self-closing tag
	// as self-closing, as can happen if the tag contains unquoted attribute
	// values (i.e. <p a=/>).
	//
	// To avoid this, we check that the last non-bracket character of the tag
	// (z.raw.end-2) isn't the same character as the last non-quote character of
	// the last attribute of the tag (z.pendingAttr[1].end-1), if the tag has
	// attributes.
	nAttrs := len(z.attr)
	if z.err == nil && z.buf[z.raw.end-2] == '/' && (nAttrs == 0 || z.raw.end-2 != z.attr[nAttrs-1][1].end-1) {
		return SelfClosingTagToken
	}
	return StartTagToken
}

// A tag and its attributes are read (x/net's readTag) by forgetAttrs,
// then readTagBuffered where the tag is wholly buffered, else
// readTagSlow; written out in the callers, readStartTag and Next for an
// end tag: a call less per tag. The opening "<a" or "</a" has already
// been consumed, where 'a' means anything in [A-Za-z].

// forgetAttrs empties the attributes of the tag before.
func (z *Tokenizer) forgetAttrs() {
	z.attr = z.attr[:0]
	z.keyBits = 0
	z.attrCut = false
	if z.attrMap {
		z.forgetNames()
	}
}

func (z *Tokenizer) forgetNames() {
	clear(z.attrNames)
	z.attrMap = false
}

// readTagSlow is readTag reading a byte at a time, where the tag is not
// wholly buffered (readTagBuffered).
func (z *Tokenizer) readTagSlow(saveAttr bool) {
	z.nameUpper = true // not looked at: maybe
	z.forgetAttrs()
	// Read the tag name and attribute key/value pairs.
	z.readTagName()
	if z.skipWhiteSpace(); z.err != nil {
		return
	}
	for {
		c := z.readByte()
		if z.err != nil || c == '>' {
			break
		}
		z.raw.end--
		z.readTagAttrKey()
		z.readTagAttrVal()
		// Save pendingAttr if saveAttr and that attribute has a non-empty key, and the key hasn't been seen before.
		if saveAttr && z.pendingAttr[0].start != z.pendingAttr[0].end {
			if len(z.attr) >= MaxAttrs {
				z.attrCut = true
			} else if !z.seenKey() {
				z.attr = append(z.attr, z.pendingAttr)
			}
		}
		if z.skipWhiteSpace(); z.err != nil {
			break
		}
	}
}

// readTagBuffered is readTag for a tag that lies wholly in the buffer
// before z.lim, read with an index into the buffer instead of a call per
// byte; it reports false, having changed nothing but z.attr, z.attrNames
// and z.pendingAttr, when the tag reaches z.lim (a refill, the end of the
// input or the maxBuf limit), where readTag then reads it byte by byte.
// Every step matches the byte-by-byte functions' on the same bytes (the
// differential tests against x/net check both paths: their one-byte
// reader forces the slow one).
func (z *Tokenizer) readTagBuffered(saveAttr bool) bool {
	buf := z.buf[:z.lim]
	i := z.raw.end
	// i only grows from here (it is no index below zero): the comparisons
	// with len(buf) are unsigned, which tells the compiler that buf[i]
	// needs no bounds check (a check per byte in the loops below).
	nameStart := i - 1
	// readTagName: a white space byte ending the name is consumed, "/"
	// and ">" are not. The first letter is never a stop byte: it counts
	// among the letters read.
	class := nameClass[buf[nameStart]]
	for uint(i) < uint(len(buf)) {
		c := nameClass[buf[i]]
		if c&nameStop != 0 {
			break
		}
		class |= c
		i++
	}
	if uint(i) >= uint(len(buf)) {
		return false
	}
	z.nameUpper = class&nameUpper != 0
	nameEnd := i
	if space[buf[i]] {
		i++
	}
	for {
		for uint(i) < uint(len(buf)) && space[buf[i]] {
			i++
		}
		if uint(i) >= uint(len(buf)) {
			return false
		}
		if buf[i] == '>' {
			i++
			break
		}
		// readTagAttrKey: an "=" as the name's first byte is part of it.
		k0 := i
		if buf[i] == '=' {
			i++
		}
		for uint(i) < uint(len(buf)) && !attrKeyStop[buf[i]] {
			i++
		}
		if uint(i) >= uint(len(buf)) {
			return false
		}
		k1 := i
		// readTagAttrVal: an absent value is the empty span at k1.
		v0, v1 := k1, k1
		for uint(i) < uint(len(buf)) && space[buf[i]] {
			i++
		}
		if uint(i) >= uint(len(buf)) {
			return false
		}
		switch buf[i] {
		case '/':
			i++
		case '=':
			i++
			for uint(i) < uint(len(buf)) && space[buf[i]] {
				i++
			}
			if uint(i) >= uint(len(buf)) {
				return false
			}
			switch q := buf[i]; q {
			case '>':
			case '"', '\'':
				i++
				n := bytes.IndexByte(buf[i:], q)
				if n < 0 {
					return false
				}
				v0, v1 = i, i+n
				i += n + 1
			default:
				v0 = i
				i++
				for uint(i) < uint(len(buf)) && !unquotedStop[buf[i]] {
					i++
				}
				if uint(i) >= uint(len(buf)) {
					return false
				}
				v1 = i
				if buf[i] != '>' {
					i++
				}
			}
		}
		z.pendingAttr = [2]span{{k0, k1}, {v0, v1}}
		if saveAttr && k0 != k1 {
			// seenKey's first test, in line: most names are new.
			if bit := keyBit(buf[k0:k1]); len(z.attr) < maxLinearAttrs && z.keyBits&bit == 0 {
				z.keyBits |= bit
				z.attr = append(z.attr, z.pendingAttr)
			} else if len(z.attr) >= MaxAttrs {
				z.attrCut = true
			} else if !z.seenKey() {
				z.attr = append(z.attr, z.pendingAttr)
			}
		}
	}
	z.data = span{nameStart, nameEnd}
	z.raw.end = i
	return true
}

// space marks HTML's white space bytes.
var space = stops(" \n\r\t\f")

// nameClass classes the bytes of a tag name: nameStop ends it, as in
// tagNameStop; nameUpper is an ASCII upper-case letter.
var nameClass = func() (c [256]uint8) {
	for b := range 256 {
		if tagNameStop[b] {
			c[b] |= nameStop
		}
		if 'A' <= b && b <= 'Z' {
			c[b] |= nameUpper
		}
	}
	return c
}()

const (
	nameStop  = 1
	nameUpper = 2
)

// readTagName sets z.data to the "div" in "<div k=v>". The reader (z.raw.end)
// is positioned such that the first byte of the tag name (the "d" in "<div")
// has already been consumed.
func (z *Tokenizer) readTagName() {
	z.data.start = z.raw.end - 1
	for {
		z.skipUntil(&tagNameStop)
		c := z.readByte()
		if z.err != nil {
			z.data.end = z.raw.end
			return
		}
		switch c {
		case ' ', '\n', '\r', '\t', '\f':
			z.data.end = z.raw.end - 1
			return
		case '/', '>':
			z.raw.end--
			z.data.end = z.raw.end
			return
		}
	}
}

// readTagAttrKey sets z.pendingAttr[0] to the "k" in "<div k=v>".
// Precondition: z.err == nil.
func (z *Tokenizer) readTagAttrKey() {
	z.pendingAttr[0].start = z.raw.end
	for {
		z.skipUntil(&attrKeyStop)
		c := z.readByte()
		if z.err != nil {
			z.pendingAttr[0].end = z.raw.end
			return
		}
		switch c {
		case '=':
			if z.pendingAttr[0].start+1 == z.raw.end {
				// WHATWG 13.2.5.32, if we see an equals sign before the attribute name
				// begins, we treat it as a character in the attribute name and continue.
				continue
			}
			fallthrough
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			// WHATWG 13.2.5.33 Attribute name state
			// We need to reconsume the char in the after attribute name state to support the / character
			z.raw.end--
			z.pendingAttr[0].end = z.raw.end
			return
		}
	}
}

// readTagAttrVal sets z.pendingAttr[1] to the "v" in "<div k=v>".
func (z *Tokenizer) readTagAttrVal() {
	z.pendingAttr[1].start = z.raw.end
	z.pendingAttr[1].end = z.raw.end
	if z.skipWhiteSpace(); z.err != nil {
		return
	}
	c := z.readByte()
	if z.err != nil {
		return
	}
	if c == '/' {
		// WHATWG 13.2.5.34 After attribute name state
		// U+002F SOLIDUS (/) - Switch to the self-closing start tag state.
		return
	}
	if c != '=' {
		z.raw.end--
		return
	}
	if z.skipWhiteSpace(); z.err != nil {
		return
	}
	quote := z.readByte()
	if z.err != nil {
		return
	}
	switch quote {
	case '>':
		z.raw.end--
		return

	case '\'', '"':
		z.pendingAttr[1].start = z.raw.end
		for {
			if z.skipInTag(quote); z.err != nil {
				z.pendingAttr[1].end = z.raw.end
				return
			}
			c := z.readByte()
			if z.err != nil {
				z.pendingAttr[1].end = z.raw.end
				return
			}
			if c == quote {
				z.pendingAttr[1].end = z.raw.end - 1
				return
			}
		}

	default:
		z.pendingAttr[1].start = z.raw.end - 1
		for {
			z.skipUntil(&unquotedStop)
			c := z.readByte()
			if z.err != nil {
				z.pendingAttr[1].end = z.raw.end
				return
			}
			switch c {
			case ' ', '\n', '\r', '\t', '\f':
				z.pendingAttr[1].end = z.raw.end - 1
				return
			case '>':
				z.raw.end--
				z.pendingAttr[1].end = z.raw.end
				return
			}
		}
	}
}

// Next scans the next token and returns its type.
func (z *Tokenizer) Next() TokenType {
	z.before = 0
	z.raw.start = z.raw.end
	z.setLim()
	z.data.start = z.raw.end
	z.data.end = z.raw.end
	if z.err != nil {
		z.tt = ErrorToken
		return z.tt
	}
	if z.rawTag != "" {
		if z.rawTag == "plaintext" {
			// Read everything up to EOF.
			for z.err == nil && !z.full() {
				z.readByte()
			}
			z.data.end = z.raw.end
			z.textIsRaw = true
		} else {
			if z.rawTag == "style" && z.styleSplit == nil {
				z.reach = never // read whole
				z.setFull()
			}
			z.readRawOrRCDATA()
		}
		if z.hold || z.reach != 0 {
			z.hold, z.reach = false, 0
			z.setFull()
		}
		if z.data.end > z.data.start {
			z.tt = TextToken
			z.convertNUL = true
			return z.tt
		}
	}
	z.textIsRaw = false
	z.convertNUL = false
	switch r := z.resume; r {
	case resumeComment, resumeBogus:
		z.resume = resumeNone
		if r == resumeComment {
			z.readCommentFrom(false)
		} else {
			z.readUntilCloseAngle()
		}
		z.tt = CommentToken
		return z.tt
	}

loop:
	for {
		// skipTo, whose first test is in line: after a tag, the next one
		// often starts right there.
		if e := z.raw.end; e >= len(z.buf) || z.buf[e] != '<' {
			z.skipTo('<')
		}
		if z.err != nil || z.full() {
			break loop
		}
		var c byte
		if e := z.raw.end; e+1 < z.lim {
			// Both bytes buffered: readByte, twice, inlined.
			c = z.buf[e]
			if c != '<' {
				z.raw.end = e + 1
				continue loop
			}
			c = z.buf[e+1]
			z.raw.end = e + 2
		} else {
			c = z.readByte()
			if z.err != nil {
				break loop
			}
			if c != '<' {
				continue loop
			}
			// Check if the '<' we have just read is part of a tag, comment
			// or doctype. If not, it's part of the accumulated text token.
			c = z.readByte()
			if z.err != nil {
				break loop
			}
		}
		var tokenType TokenType
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			tokenType = StartTagToken
		case c == '/':
			tokenType = EndTagToken
		case c == '!' || c == '?':
			// We use CommentToken to mean any of "<!--actual comments-->",
			// "<!DOCTYPE declarations>" and "<?xml processing instructions?>".
			tokenType = CommentToken
		default:
			// Reconsume the current character.
			z.raw.end--
			continue
		}

		// We have a non-text token, but we might have accumulated some text
		// before that. If so, we return the text first, and return the non-
		// text token on the subsequent call to Next.
		if x := z.raw.end - len("<a"); z.raw.start < x {
			if !z.passText {
				z.raw.end = x
				z.data.end = x
				z.tt = TextToken
				return z.tt
			}
			// The text goes into the run of passed tokens and the token
			// starts at the "<", with its own maxBuf limit, as if it had
			// come from the next call.
			if z.passEnd != z.raw.start || z.passEnd == 0 {
				z.Flush()
				z.passStart = z.raw.start
			}
			z.passEnd = x
			z.before = x - z.raw.start
			z.raw.start = x
			z.data.start = x
			z.setLim()
		}
		switch tokenType {
		case StartTagToken:
			z.tt = z.readStartTag()
			return z.tt
		case EndTagToken:
			if e := z.raw.end; e < z.lim {
				c = z.buf[e] // readByte, inlined
				z.raw.end = e + 1
			} else if c = z.readByte(); z.err != nil {
				break loop
			}
			if c == '>' {
				// "</>" does not generate a token at all. Generate an empty comment
				// to allow passthrough clients to pick up the data using Raw.
				// Reset the tokenizer state and start again.
				z.tt = CommentToken
				return z.tt
			}
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
				z.forgetAttrs() // readTag(false), written out
				if !z.readTagBuffered(false) {
					z.readTagSlow(false)
				}
				if z.err != nil {
					z.tt = ErrorToken
				} else {
					z.tt = EndTagToken
				}
				return z.tt
			}
			z.raw.end--
			z.readUntilCloseAngle()
			z.tt = CommentToken
			return z.tt
		case CommentToken:
			if c == '!' {
				z.tt = z.readMarkupDeclaration()
				return z.tt
			}
			z.raw.end--
			z.readUntilCloseAngle()
			z.tt = CommentToken
			return z.tt
		}
	}
	if z.raw.start < z.raw.end {
		z.data.end = z.raw.end
		z.tt = TextToken
		return z.tt
	}
	z.tt = ErrorToken
	return z.tt
}

// Raw returns the unmodified text of the current token. Calling Next may
// change the contents of the returned slice.
//
// The token stream's raw bytes partition the byte stream (up until an
// ErrorToken). There are no overlaps or gaps between two consecutive token's
// raw bytes. One implication is that the byte offset of the current token is
// the sum of the lengths of all previous tokens' raw bytes.
func (z *Tokenizer) Raw() []byte {
	return z.buf[z.raw.start:z.raw.end]
}

// SetMaxBuf sets a limit on the amount of data buffered during tokenization.
// A value of 0 means unlimited.
func (z *Tokenizer) SetMaxBuf(n int) {
	z.maxBuf = n
	z.room = never
	if n > 0 {
		z.room = n - 1
	}
	z.setLim()
}

// NewTokenizer returns a new HTML Tokenizer for the given Reader.
// The input is assumed to be UTF-8 encoded.
func NewTokenizer(r io.Reader) *Tokenizer {
	return NewTokenizerSize(r, 4096)
}

// NewTokenizerSize is NewTokenizer reading into a buffer of size bytes.
// x/net reads 4096 bytes at a time, and so does NewTokenizer: the
// differential tests compare what is buffered when a token is too long
// (Buffered), which depends on it. A reader of whole files wants fewer,
// larger reads.
func NewTokenizerSize(r io.Reader, size int) *Tokenizer {
	return &Tokenizer{
		r:         r,
		buf:       make([]byte, 0, max(size, 16)),
		attrNames: make(map[string]bool),
		room:      never,
		fullLen:   never,
	}
}

// NewTokenizerBuffer is NewTokenizerSize reading into buf (its length is
// ignored, its capacity is the read size), so that a caller tokenizing
// many documents can reuse one buffer: after the last token, ReadBuffer
// gives back the buffer the tokenizer ends with (buf, or a larger one it
// had to grow for a long token). No byte of it may be used after that.
func NewTokenizerBuffer(r io.Reader, buf []byte) *Tokenizer {
	if cap(buf) < 16 {
		return NewTokenizerSize(r, 16)
	}
	return &Tokenizer{
		r:         r,
		buf:       buf[:0],
		attrNames: make(map[string]bool),
		room:      never,
		fullLen:   never,
	}
}

// ResetBuffer is Reset reading into buf (as NewTokenizerBuffer(r, buf)
// would) instead of z's own buffer, for a caller that keeps its read
// buffers apart (htmlrewrite's scanners take theirs back with ReadBuffer
// after each document): a tokenizer per document was a tenth of what a
// rewrite of many small pages allocated. The attribute memory is kept
// unless a tag with more than maxKeptAttrs attributes made it large.
// buf's capacity must be at least 16, or buf nil for a tokenizer kept
// unused.
func (z *Tokenizer) ResetBuffer(r io.Reader, buf []byte) {
	attr, names := z.attr[:0], z.attrNames
	if cap(attr) > maxKeptAttrs {
		attr, names = nil, nil
	}
	clear(names)
	if names == nil {
		names = make(map[string]bool)
	}
	*z = Tokenizer{r: r, buf: buf[:0], attr: attr, attrNames: names, room: never, fullLen: never}
}

// ResetRead is ResetBuffer where buf holds the input's first bytes (its
// length), to be tokenized before what r gives: a caller that read a
// document's start into buf to decide how to read it (its encoding)
// hands that read over instead of copying it into another buffer.
func (z *Tokenizer) ResetRead(r io.Reader, buf []byte) {
	z.ResetBuffer(r, buf)
	z.buf = buf
	z.setLim()
}

// maxKeptAttrs bounds the attribute memory Reset keeps.
const maxKeptAttrs = 1024

// ReadBuffer returns the tokenizer's read buffer, empty, for reuse by a
// later NewTokenizerBuffer; the tokenizer must not be used after it.
func (z *Tokenizer) ReadBuffer() []byte {
	b := z.buf[:0]
	z.buf = nil
	return b
}

// skipTo moves past the buffered bytes before the next c, as readByte
// would one at a time: up to c, the end of the buffer, or the maxBuf limit
// (which then sets ErrBufferExceeded where readByte would). In a token
// SetChunk may split, it also stops where a split may come.
// skipEscaped moves over the bytes of escaped script data ("<!--" in a
// script) that leave its state as it is: all but "-" and "<". It stops
// at the buffer's limit and where full would stop the byte loop, so that
// the byte loop goes on exactly as if it had read them one by one (a
// call of readByte per byte of such scripts was 2 % of a rewrite).
func (z *Tokenizer) skipEscaped() {
	e, stop := z.raw.end, z.lim
	stop = min(stop, z.raw.start+z.fullLen)
	stop = min(stop, len(z.buf))
	for e < stop && !escapedStop[z.buf[e]] {
		e++
	}
	if e > z.raw.end {
		z.raw.end = e
	}
}

// escapedStop holds the bytes that move escaped script data to another
// state (HTML §13.2.5.20, script data escaped state).
var escapedStop = stops("-<")

func (z *Tokenizer) skipTo(c byte) {
	z.skip(c, true)
}

// skipInTag is skipTo inside a tag (a quoted attribute value): a tag is
// never split, so no chunk stop applies. With one, every byte of a value
// longer than the chunk size cost a scan to the buffer's end (quadratic:
// a 1 MiB value 1.6 s, one of MaxToken's 16 MiB several minutes).
func (z *Tokenizer) skipInTag(c byte) {
	z.skip(c, false)
}

func (z *Tokenizer) skip(c byte, split bool) {
	if z.err != nil || z.raw.end >= len(z.buf) || z.buf[z.raw.end] == c {
		// At c already: a token (the next "<" after a text token, a
		// closing quote) often starts or ends right there. No limit can
		// be reached by not moving.
		return
	}
	end := len(z.buf)
	if i := bytes.IndexByte(z.buf[z.raw.end:], c); i >= 0 {
		end = z.raw.end + i
	}
	z.scanned += end - z.raw.end
	if split && end-z.raw.start > z.fullLen {
		// Stop where a split may come, not at the buffer's end.
		end = max(z.raw.end, z.raw.start+z.fullLen)
	}
	if end-z.raw.start > z.room {
		z.raw.end = z.raw.start + z.maxBuf
		z.err = ErrBufferExceeded
		return
	}
	z.raw.end = end
}

// stopSet marks the bytes a skipUntil stops at.
type stopSet [256]bool

func stops(chars string) (s stopSet) {
	for i := 0; i < len(chars); i++ {
		s[chars[i]] = true
	}
	return s
}

var (
	// tagNameStop ends a tag name (readTagName).
	tagNameStop = stops(" \n\r\t\f/>")
	// attrKeyStop ends an attribute name (readTagAttrKey).
	attrKeyStop = stops(" \n\r\t\f/>=")
	// unquotedStop ends an unquoted attribute value (readTagAttrVal).
	unquotedStop = stops(" \n\r\t\f>")
	// commentStop holds the bytes that change readCommentFrom's state.
	commentStop = stops("->!")
)

// skipPast returns the index of the first byte of b from i on that is
// in stop, or len(b).
func skipPast(b []byte, i int, stop *stopSet) int {
	// Unsigned, i (no index below zero) needs no bounds check per byte.
	for uint(i) < uint(len(b)) && !stop[b[i]] {
		i++
	}
	return i
}

// skipUntil moves past the buffered bytes before the next one in stop,
// as readByte would one at a time for a caller that reads on past every
// other byte: it stops before the byte that would reach the maxBuf limit,
// so that readByte then fails as it would have. Tags are never split
// (SetChunk), so the chunk size does not bound it.
func (z *Tokenizer) skipUntil(stop *stopSet) {
	if z.err != nil {
		return
	}
	i, end := z.raw.end, z.lim
	for i < end && !stop[z.buf[i]] {
		i++
	}
	z.raw.end = i
}

// maxLinearAttrs is how many attributes a tag may have before duplicates
// are looked for in a map rather than by comparing names.
const maxLinearAttrs = 16

// MaxAttrs bounds the attributes kept of one tag (and the names kept to
// drop duplicates): what a tag of more holds is bounded all the same, and
// AttrsCut tells.
const MaxAttrs = 65536

// AttrsCut reports whether the current tag has more than MaxAttrs
// attributes, of which only the first MaxAttrs are kept.
func (z *Tokenizer) AttrsCut() bool { return z.attrCut }

// seenKey reports whether pendingAttr's name equals, ASCII
// case-insensitively, the name of an attribute already saved: only the
// first of duplicates counts (x/net ≥ v0.55.0, CVE-2026-27136).
func (z *Tokenizer) seenKey() bool {
	k := z.buf[z.pendingAttr[0].start:z.pendingAttr[0].end]
	if len(z.attr) < maxLinearAttrs {
		// Names equal ASCII case-insensitively have the same keyBit: a
		// name whose bit no saved name has is new, without comparing it
		// with each (most tags' names differ in length or first or last
		// letter). This check was a tenth of reading a tag.
		bit := keyBit(k)
		if z.keyBits&bit == 0 {
			z.keyBits |= bit
			return false
		}
		for _, a := range z.attr {
			if asciiEqualFold(z.buf[a[0].start:a[0].end], k) {
				return true
			}
		}
		return false
	}
	if !z.attrMap {
		z.attrMap = true
		for _, a := range z.attr {
			z.attrNames[string(asciiLower(z.buf[a[0].start:a[0].end]))] = true
		}
	}
	key := string(asciiLower(k))
	if z.attrNames[key] {
		return true
	}
	z.attrNames[key] = true
	return false
}

// keyBit returns one of 64 bits for the non-empty attribute name k, from
// its length and its first and last bytes, the same for names equal ASCII
// case-insensitively (c|0x20 is the lower-case letter of either case, and
// any other byte is equal in such names).
func keyBit(k []byte) uint64 {
	h := uint(len(k))*13 + uint(k[0]|0x20) + 3*uint(k[len(k)-1]|0x20)
	return 1 << (h & 63)
}

func asciiLower(b []byte) []byte {
	l := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		l[i] = c
	}
	return l
}

func asciiEqualFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Attr is an attribute of a start tag as offsets into its Raw bytes: the
// name is Raw[Key[0]:Key[1]], the value (without quotes) Raw[Val[0]:Val[1]].
// A value that is absent starts where the name ends.
type Attr struct {
	Key, Val [2]int
}

// Tag returns, for a start or self-closing tag token, its name's offsets
// in Raw and its attributes (only the first of those with equal names,
// ASCII case-insensitively, as x/net's TagAttr gives them), appended to
// dst. It must be called before the next call to Next. AttrCount,
// AttrKey and AttrVal give the same without a copy.
func (z *Tokenizer) Tag(dst []Attr) (name [2]int, attrs []Attr) {
	if z.tt != StartTagToken && z.tt != SelfClosingTagToken {
		return name, dst
	}
	name = z.TagName()
	for i := range z.AttrCount() {
		var a Attr
		a.Key[0], a.Key[1] = z.AttrKey(i)
		a.Val[0], a.Val[1] = z.AttrVal(i)
		dst = append(dst, a)
	}
	return name, dst
}

// TagName returns the offsets in Raw of the name of the current start,
// self-closing or end tag.
func (z *Tokenizer) TagName() [2]int {
	return [2]int{z.data.start - z.raw.start, z.data.end - z.raw.start}
}

// NameLower reports whether the name of the current start, self-closing
// or end tag (TagName) is known to hold no ASCII upper-case letter: its
// raw bytes are then its name as x/net's TagName gives it, NUL apart. A
// name not read in the buffered fast path is not looked at: false.
func (z *Tokenizer) NameLower() bool {
	return !z.nameUpper
}

// AttrCount returns the number of attributes Tag gives for the current
// token: 0 unless it is a start or self-closing tag.
func (z *Tokenizer) AttrCount() int {
	if z.tt != StartTagToken && z.tt != SelfClosingTagToken {
		return 0
	}
	return len(z.attr)
}

// AttrKey returns the offsets in Raw of the name of attribute i < AttrCount().
func (z *Tokenizer) AttrKey(i int) (int, int) {
	a := &z.attr[i][0]
	return a.start - z.raw.start, a.end - z.raw.start
}

// AttrVal returns the offsets in Raw of the value of attribute i < AttrCount().
func (z *Tokenizer) AttrVal(i int) (int, int) {
	a := &z.attr[i][1]
	return a.start - z.raw.start, a.end - z.raw.start
}
