package archive

import (
	"io"
	"sync"
)

// A Stream is an input read as it comes, such as a filter's standard
// input, whose reader must do something on the goroutine that handles
// what is read before it waits for more: a filter flushes the output
// written so far, so that it reaches its reader while the input is still
// coming. Read calls Wait, then reads R.
//
// A pipelined reader ([Options.Pipelined], [WARCReader.Pipeline]) reads
// R on a goroutine of its own. While it does, Read does not call Wait;
// the goroutine that reads the records calls it instead, each time it
// waits for the pipeline. A Wait error is returned by every later Read.
type Stream struct {
	R    io.Reader
	Wait func() error // nil: nothing to do

	mu   sync.Mutex
	away bool  // a pipeline's goroutine reads R
	err  error // Wait's error
}

// Read reads R, calling Wait first unless a pipeline reads it.
func (s *Stream) Read(p []byte) (int, error) {
	s.mu.Lock()
	away, err := s.away, s.err
	s.mu.Unlock()
	if err != nil {
		return 0, err
	}
	if !away {
		if err := s.wait(); err != nil {
			return 0, err
		}
	}
	return s.R.Read(p)
}

// wait calls Wait, keeping its error for Read. A nil s does nothing.
func (s *Stream) wait() error {
	if s == nil || s.Wait == nil {
		return nil
	}
	err := s.Wait()
	if err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	return err
}

// setAway says whether a pipeline's goroutine reads the stream. A nil s
// does nothing.
func (s *Stream) setAway(away bool) {
	if s != nil {
		s.mu.Lock()
		s.away = away
		s.mu.Unlock()
	}
}
