package archive

import "io"

// Pipelined reading of a compressed WARC (.warc.gz, .warc.zst, their WAT
// files): a goroutine decodes gzip members or zstd frames ahead of the
// parser into a bounded queue of decoded chunks, so that decompression
// and link extraction run on different cores.
//
// Only the good path is pipelined. The worker runs the same members code
// as sequential reading, on its own members value and the shared source,
// which it alone touches while it runs. At the first irregular event (a
// member header or body that does not decode, a read error, the end of
// the input) it hands that event over and exits; the reader then adopts
// the worker's members state (source position, retained bytes, error,
// decoder) and goes on sequentially from there, so that recovery
// (resync, rewind) sees exactly the state it sees today.

const (
	pipeChunk  = 256 << 10 // bytes of one decoded chunk
	pipeChunks = 8         // chunks in flight: the queue's memory bound
)

type pipeKind uint8

const (
	pipeStart pipeKind = iota // a member opened at off
	pipeData                  // decoded bytes of the open member
	pipeEnd                   // the member ended cleanly
	pipeStop                  // the worker stopped: err is what next or Read returned
)

type pipeEvent struct {
	kind pipeKind
	off  int64
	buf  []byte // pipeData: a chunk from the free list
	err  error
}

type memberPipe struct {
	worker members
	events chan pipeEvent
	free   chan []byte
	done   chan struct{}
	exited chan struct{}
	made   int    // chunks made so far: at most pipeChunks, made as needed
	cur    []byte // the chunk being read
	whole  []byte // cur's whole buffer, to give back
	// stream is the input when it is read as it comes: each decoded
	// piece goes to the parser at once (not when a chunk is full), and
	// the parser calls its Wait before it waits for the worker.
	stream *Stream
}

// startPipe starts the worker on m's source, where the next member is
// to be opened: at the first, or where reading resumed after damage.
func (m *members) startPipe() {
	p := &memberPipe{
		worker: members{kind: m.kind, src: m.src, gz: m.gz, zd: m.zd, isRecord: m.isRecord, opens: m.opens},
		events: make(chan pipeEvent, 3*pipeChunks),
		free:   m.spare,
		done:   make(chan struct{}),
		exited: make(chan struct{}),
		stream: m.stream,
	}
	p.stream.setAway(true) // before the worker can read it
	if p.free == nil {
		p.free = make(chan []byte, pipeChunks)
	}
	p.made = len(p.free) // every chunk made is back when a worker stops
	m.spare = nil
	m.pipe = p
	go p.run()
}

func (p *memberPipe) send(e pipeEvent) bool {
	select {
	case p.events <- e:
		return true
	case <-p.done:
		return false
	}
}

func (p *memberPipe) run() {
	defer close(p.exited)
	w := &p.worker
	for {
		if err := w.next(); err != nil {
			p.send(pipeEvent{kind: pipeStop, err: err})
			return
		}
		if !p.send(pipeEvent{kind: pipeStart, off: w.start}) {
			return
		}
		for {
			var buf []byte
			select {
			case buf = <-p.free:
			default:
				if p.made < pipeChunks {
					buf = make([]byte, pipeChunk)
					p.made++
					break
				}
				select {
				case buf = <-p.free:
				case <-p.done:
					return
				}
			}
			buf = buf[:cap(buf)]
			n := 0
			var err error
			for n < len(buf) && err == nil {
				select {
				case <-p.done:
					return
				default:
				}
				var k int
				k, err = w.Read(buf[n:])
				n += k
				if k > 0 && p.stream != nil {
					// What has come is parsed before the worker waits
					// for more: the output of a filter keeps up.
					break
				}
			}
			if n > 0 {
				if !p.send(pipeEvent{kind: pipeData, buf: buf[:n]}) {
					return
				}
			} else {
				p.free <- buf
			}
			if err == io.EOF {
				if !p.send(pipeEvent{kind: pipeEnd}) {
					return
				}
				break
			}
			if err != nil {
				p.send(pipeEvent{kind: pipeStop, err: err})
				return
			}
		}
	}
}

// adopt takes over the stopped worker's state: reading goes on
// sequentially from where it stopped (the worker starts again at the
// next member the reader opens, after damage; not after the end).
func (m *members) adopt(err error) {
	p := m.pipe
	isRecord, ok := m.isRecord, m.pipeOK // the reader may have changed isRecord (an ARC file)
	*m = p.worker                        // the same members opened, in the same state
	m.stream = p.stream
	p.stream.setAway(false) // the worker has stopped reading it
	m.isRecord = isRecord
	m.pipeOK = ok && err != io.EOF
	m.spare = p.free
	m.pipe = nil
}

// pipeNext is next while the worker runs.
func (m *members) pipeNext() error {
	p := m.pipe
	// The reader opens a member only after the last ended (Read gave
	// io.EOF or an error; the archive tests never do otherwise): what is
	// left of one would be skipped here.
	if p.whole != nil {
		p.free <- p.whole
		p.cur, p.whole = nil, nil
	}
	m.in, m.err = false, nil
	for {
		e := p.recv()
		switch e.kind {
		case pipeStart:
			m.start = e.off
			m.in = true
			m.opens++
			return nil
		case pipeStop:
			m.adopt(e.err)
			return e.err
		default:
			// data or end of a member the reader left unread: skip it,
			// as sequential next would.
			if e.kind == pipeData {
				p.free <- e.buf[:cap(e.buf)]
			}
		}
	}
}

// pipeRead is Read while the worker runs.
func (m *members) pipeRead(b []byte) (int, error) {
	p := m.pipe
	for len(p.cur) == 0 {
		if p.whole != nil {
			p.free <- p.whole
			p.whole = nil
		}
		e := p.recv()
		switch e.kind {
		case pipeData:
			p.cur, p.whole = e.buf, e.buf[:cap(e.buf)]
		case pipeEnd:
			m.in = false
			return 0, io.EOF
		case pipeStop:
			m.adopt(e.err)
			return 0, e.err
		default:
			panic("archive: member start inside a member")
		}
	}
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	return n, nil
}

// recv returns the worker's next event. Before it waits for one, it
// calls the stream's Wait, here on the parser's goroutine: what the
// parser has written goes out while the input is still coming.
func (p *memberPipe) recv() pipeEvent {
	select {
	case e := <-p.events:
		return e
	default:
	}
	p.stream.wait()
	return <-p.events
}

// stopPipe ends the worker, if it runs, and waits for it to stop
// reading the source: the reader reads no more.
func (m *members) stopPipe() {
	if m.pipe != nil {
		close(m.pipe.done)
		<-m.pipe.exited
		m.pipe.stream.setAway(false)
		m.pipe = nil
	}
}
