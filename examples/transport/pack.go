package transport

import (
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// MinPayloadSize is the smallest payload size a peer may coalesce to: a lane datagram is
// never split and the lane fills its datagrams up to lane.MTU, so every datagram of
// today (a message, at most wire.MaxSize bytes, or a lane datagram) must fit one
// datagram alone.
const MinPayloadSize = lane.MTU

// Packer coalesces the datagrams of one flush to one peer: each datagram handed to it
// becomes an element of a bundle (wire.BundleWriter), and a bundle leaves, through the
// flush's emit function, when the next element does not fit the payload size or when the
// flush finishes. A bundle of one element leaves bare, so a lone message costs no byte
// more than without coalescing. A Packer is reused from flush to flush (Start, Add or
// Send, Finish) and allocates nothing once its buffer has the payload size; emit sees
// each datagram only during the call. It is not safe for concurrent use.
type Packer struct {
	w       wire.BundleWriter
	payload int
	// Datagrams counts the datagrams emitted, bundles or bare; Elements the datagrams of
	// their own they carried (a bare datagram is one): Elements/Datagrams is how many
	// datagrams coalescing saved.
	Datagrams, Elements uint64
}

// Start begins a flush of datagrams of at most payload bytes.
func (p *Packer) Start(payload int) {
	p.payload = payload
	p.w.Reset(payload)
}

// Add packs d, one whole datagram, as the next element, first emitting the bundle being
// built when d does not fit beside it, and returns d's copy in the bundle: the caller may
// patch it in place until the next Add, Send or Finish (a server stamps each recipient's
// copy of a relay there with wire.PatchStamp). It returns BundleWriter.Add's error for a
// datagram that cannot be an element (longer than the payload size, shorter than a
// header, a bundle), and then neither packs nor emits it.
func (p *Packer) Add(d []byte, emit func([]byte)) ([]byte, error) {
	c, err := p.w.Add(d)
	if err != nil {
		return p.full(d, emit, err)
	}
	return c, nil
}

// Bundle is the bundle being built, for a hot loop to append valid elements to it with
// wire.BundleWriter.Append (inlined, where Add is a call), falling back to Add when that
// reports no room: Finish counts what it holds either way.
func (p *Packer) Bundle() *wire.BundleWriter { return &p.w }

// full is Add's path when d did not go in: a full bundle leaves first.
func (p *Packer) full(d []byte, emit func([]byte), err error) ([]byte, error) {
	if err != wire.ErrBundleFull {
		return nil, err
	}
	p.Finish(emit)
	return p.w.Add(d)
}

// Send packs d like Add; a datagram that cannot be an element leaves alone, as it is,
// after the bundle being built.
func (p *Packer) Send(d []byte, emit func([]byte)) {
	if _, err := p.Add(d, emit); err != nil {
		p.Finish(emit)
		p.Datagrams++
		p.Elements++
		emit(d)
	}
}

// Finish emits the bundle being built, if it holds anything, and starts the next one.
func (p *Packer) Finish(emit func([]byte)) {
	n := p.w.Len()
	if n == 0 {
		return
	}
	p.Datagrams++
	p.Elements += uint64(n)
	emit(p.w.Bytes())
	p.w.Reset(p.payload)
}
