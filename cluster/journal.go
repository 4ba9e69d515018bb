package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dobble-dev/dobble/journal"
	"github.com/dobble-dev/dobble/room"
)

// seqHeader holds, in a message of a room's journal, the number of its
// first entry; the message holds its entries one a line.
const seqHeader = "Dobble-Seq"

// maxMessage is the most bytes of entries one message of the journal
// holds; more wait for the next.
const maxMessage = 256 << 10

// retryWait is how long a write to the journal that failed waits before
// it is sent again.
const retryWait = 200 * time.Millisecond

// roomLog is the journal of one room, as this node writes it.
type roomLog struct {
	jid     string
	subject string
	// last is the stream sequence of the room's last message, which the
	// next message expects.
	last  uint64
	queue []op
	// busy is set while a message, a purge or the done functions of the
	// room are under way: the room's writes are done one after the
	// other, in order.
	busy bool
	// fenced, once set, fails every write: the room is another node's.
	fenced error
}

// op is a write asked of the journal: an entry, an empty turn (data
// nil), or the drop of the room.
type op struct {
	seq  int64
	data []byte
	drop bool
	done func(error)
}

// Append adds entry seq of room jid, holding data, and calls done once
// the stream has acknowledged it (room.Journal). The entries written while
// the room's last message waits for its acknowledgement go in the next
// message.
func (n *Node) Append(jid string, seq int64, data []byte, done func(error)) {
	n.enqueue(jid, op{seq: seq, data: data, done: done})
}

// Drop purges the journal of room jid, once it has ended, up to its last
// message, then deletes its key in the directory, and calls done
// (room.Journal).
func (n *Node) Drop(jid string, done func(error)) {
	n.enqueue(jid, op{drop: true, done: done})
}

// Truncate keeps the first seq entries of room jid (room.Journal): the
// entries after them stay in the stream, but the room's next entry,
// numbered seq+1, supersedes them when the journal is read (read keeps,
// of entries numbered alike, the last written). done is called once the
// room's writes before it are done.
func (n *Node) Truncate(jid string, seq int64, done func(error)) {
	n.enqueue(jid, op{done: done})
}

// Load returns no room: in a cluster, a node takes over the rooms of the
// directory whose node is gone, its own of an earlier run among them.
func (n *Node) Load() map[string][]journal.Entry { return map[string][]journal.Entry{} }

// Flush waits until every write asked for before it is done.
func (n *Node) Flush(ctx context.Context) error {
	n.jmu.Lock()
	idle := n.idle
	n.jmu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// enqueue queues o for room jid's journal and starts the room's writes.
func (n *Node) enqueue(jid string, o op) {
	n.jmu.Lock()
	if n.jclosed {
		n.jmu.Unlock()
		if o.done != nil {
			o.done(fmt.Errorf("%w: the node is closed", room.ErrFenced))
		}
		return
	}
	l := n.logs[jid]
	if l == nil {
		l = &roomLog{jid: jid, subject: subject(jid)}
		n.logs[jid] = l
	}
	l.queue = append(l.queue, o)
	if n.pending == 0 {
		n.idle = make(chan struct{})
	}
	n.pending++
	n.jmu.Unlock()
	n.pump(l)
}

// finish calls the done functions of ops with err, in order, then lets
// the room's next writes go.
func (n *Node) finish(l *roomLog, ops []op, err error) {
	for _, o := range ops {
		if o.done != nil {
			o.done(err)
		}
	}
	n.jmu.Lock()
	l.busy = false
	n.pending -= len(ops)
	if n.pending == 0 {
		close(n.idle)
	}
	n.jmu.Unlock()
}

// pump starts the next writes of room l, unless some are under way: the
// empty turns at the head of its queue are done at once, a drop purges
// the room's journal, and entries go in one message.
func (n *Node) pump(l *roomLog) {
	for {
		n.jmu.Lock()
		if l.busy || len(l.queue) == 0 {
			n.jmu.Unlock()
			return
		}
		l.busy = true
		if l.fenced != nil {
			ops, err := l.queue, l.fenced
			l.queue = nil
			n.jmu.Unlock()
			n.finish(l, ops, err)
			continue
		}
		k := 0
		for k < len(l.queue) && l.queue[k].data == nil && !l.queue[k].drop {
			k++
		}
		if k > 0 {
			ops := l.queue[:k:k]
			l.queue = l.queue[k:]
			n.jmu.Unlock()
			n.finish(l, ops, nil)
			continue
		}
		if l.queue[0].drop {
			o := l.queue[0]
			l.queue = l.queue[1:]
			last := l.last
			n.jmu.Unlock()
			go n.drop(l, o, last)
			return
		}
		// Entries, and the empty turns among them, up to maxMessage.
		size := 0
		for k < len(l.queue) && !l.queue[k].drop && (k == 0 || size+len(l.queue[k].data) <= maxMessage) {
			size += len(l.queue[k].data) + 1
			k++
		}
		ops := l.queue[:k:k]
		l.queue = l.queue[k:]
		expect := l.last
		n.jmu.Unlock()
		n.publish(l, ops, n.message(l, ops), expect)
		return
	}
}

// message makes the message of the entries of ops.
func (n *Node) message(l *roomLog, ops []op) *nats.Msg {
	var body bytes.Buffer
	first := int64(0)
	for _, o := range ops {
		if o.data == nil {
			continue
		}
		if first == 0 {
			first = o.seq
		} else {
			body.WriteByte('\n')
		}
		body.Write(o.data)
	}
	msg := nats.NewMsg(l.subject)
	msg.Header.Set(seqHeader, strconv.FormatInt(first, 10))
	msg.Data = body.Bytes()
	return msg
}

// publish sends msg, holding ops, to the stream, expecting the room's
// last message to be expect, and tries again until it is acknowledged or
// refused: a refusal for the expected sequence fences the room.
func (n *Node) publish(l *roomLog, ops []op, msg *nats.Msg, expect uint64) {
	id := l.jid + "#" + msg.Header.Get(seqHeader)
	fut, err := n.js.PublishMsgAsync(msg, jetstream.WithExpectLastSequencePerSubject(expect), jetstream.WithMsgID(id))
	if err == nil {
		go func() {
			select {
			case ack := <-fut.Ok():
				n.published(l, ops, msg, expect, ack.Sequence, nil)
			case err := <-fut.Err():
				n.published(l, ops, msg, expect, 0, err)
			}
		}()
		return
	}
	n.published(l, ops, msg, expect, 0, err)
}

// published takes note of the outcome of a message of room l.
func (n *Node) published(l *roomLog, ops []op, msg *nats.Msg, expect, seq uint64, err error) {
	n.jmu.Lock()
	fenced := l.fenced
	switch {
	case err == nil && fenced == nil:
		l.last = seq
	case err != nil && conflict(err):
		fenced = fmt.Errorf("%w: the journal of room %s was written by another node (%v)", room.ErrFenced, l.jid, err)
		l.fenced = fenced
	}
	n.jmu.Unlock()
	switch {
	case fenced != nil:
		if err != nil {
			n.lose(codeOf(l.jid), l.jid, "fenced")
		}
		n.finish(l, ops, fenced)
		n.pump(l)
	case err == nil:
		n.clearPubErr()
		n.finish(l, ops, nil)
		n.pump(l)
	default:
		// NATS is away or slow: the same message goes again, with the
		// same id, which the stream keeps once; the room's frames wait.
		n.metrics.PublishFailures.Inc()
		n.setPubErr(err)
		time.AfterFunc(retryWait, func() {
			n.jmu.Lock()
			fenced, closed := l.fenced, n.jclosed
			n.jmu.Unlock()
			if fenced != nil || closed {
				if fenced == nil {
					fenced = fmt.Errorf("%w: the node is closed", room.ErrFenced)
				}
				n.finish(l, ops, fenced)
				n.pump(l)
				return
			}
			n.publish(l, ops, msg, expect)
		})
	}
}

// drop purges the journal of room l, up to its last message last, then
// deletes its key and calls o's done; a purge that fails is tried again
// every second while the node runs.
func (n *Node) drop(l *roomLog, o op, last uint64) {
	for last > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), n.o.Timeout)
		err := n.stream.Purge(ctx, jetstream.WithPurgeSubject(l.subject), jetstream.WithPurgeSequence(last+1))
		cancel()
		if err == nil {
			break
		}
		n.metrics.PublishFailures.Inc()
		n.log.Error("cluster: the journal of a room that ended could not be purged; trying again", "room", l.jid, "err", err)
		select {
		case <-n.ctx.Done():
			n.finish(l, []op{o}, err)
			return
		case <-time.After(time.Second):
		}
	}
	n.Release(codeOf(l.jid), l.jid)
	n.jmu.Lock()
	delete(n.logs, l.jid)
	n.jmu.Unlock()
	n.finish(l, []op{o}, nil)
}

// adopt starts the journal of room jid, taken over, after its message
// last.
func (n *Node) adopt(jid string, last uint64) {
	n.jmu.Lock()
	n.logs[jid] = &roomLog{jid: jid, subject: subject(jid), last: last}
	n.jmu.Unlock()
}

// fence fails every write of room jid from now on: the node no longer
// owns it.
func (n *Node) fence(jid, why string) {
	n.jmu.Lock()
	l := n.logs[jid]
	if l != nil && l.fenced == nil {
		l.fenced = fmt.Errorf("%w: room %s: %s", room.ErrFenced, jid, why)
	}
	n.jmu.Unlock()
	if l != nil {
		n.pump(l)
	}
}

// forget drops the journal of room jid from the node's memory once the
// room is another node's, or has ended, and the node has given it up (its
// writes fenced, none waiting).
func (n *Node) forget(jid string) {
	n.jmu.Lock()
	if l := n.logs[jid]; l != nil && l.fenced != nil && !l.busy && len(l.queue) == 0 {
		delete(n.logs, jid)
	}
	n.jmu.Unlock()
}

// closeJournal fails the writes still waiting, and those asked for later.
func (n *Node) closeJournal() {
	n.jmu.Lock()
	n.jclosed = true
	logs := make([]*roomLog, 0, len(n.logs))
	for _, l := range n.logs {
		if l.fenced == nil {
			l.fenced = fmt.Errorf("%w: the node is closed", room.ErrFenced)
		}
		logs = append(logs, l)
	}
	n.jmu.Unlock()
	for _, l := range logs {
		n.pump(l)
	}
}

// setPubErr and clearPubErr keep the last failure of the journal's
// writes, for Health.
func (n *Node) setPubErr(err error) {
	n.mu.Lock()
	if n.pubErr == nil {
		n.pubErrAt = time.Now()
		n.log.Warn("cluster: a write to the rooms' journal failed; it is tried again, and the room's frames wait", "err", err)
	}
	n.pubErr = err
	n.mu.Unlock()
}

func (n *Node) clearPubErr() {
	n.mu.Lock()
	if n.pubErr != nil {
		n.log.Info("cluster: the rooms' journal is written again", "failing_since", n.pubErrAt)
	}
	n.pubErr = nil
	n.mu.Unlock()
}

// read reads the journal of room jid: its entries, in order, and the
// stream sequence of its last message (0 when it has none).
func (n *Node) read(ctx context.Context, jid string) ([]journal.Entry, uint64, error) {
	subj := subject(jid)
	lastMsg, err := n.stream.GetLastMsgForSubject(ctx, subj)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	last := lastMsg.Sequence
	cons, err := n.stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subj}})
	if err != nil {
		return nil, 0, err
	}
	var es []journal.Entry
	for {
		batch, err := cons.Fetch(512, jetstream.FetchMaxWait(n.o.Timeout))
		if err != nil {
			return nil, 0, err
		}
		got := 0
		for msg := range batch.Messages() {
			got++
			md, err := msg.Metadata()
			if err != nil {
				return nil, 0, err
			}
			first, err := strconv.ParseInt(msg.Headers().Get(seqHeader), 10, 64)
			if err != nil {
				return nil, 0, fmt.Errorf("message %d of %s: header %s: %v", md.Sequence.Stream, subj, seqHeader, err)
			}
			// Entries numbered as some read before supersede them: the
			// room's journal was truncated there (Truncate).
			for len(es) > 0 && es[len(es)-1].Seq >= first {
				es = es[:len(es)-1]
			}
			for i, line := range bytes.Split(msg.Data(), []byte{'\n'}) {
				es = append(es, journal.Entry{Seq: first + int64(i), Data: bytes.Clone(line)})
			}
			if md.Sequence.Stream >= last {
				return es, last, nil
			}
		}
		if err := batch.Error(); err != nil {
			return nil, 0, err
		}
		if got == 0 {
			return nil, 0, fmt.Errorf("%s: the messages up to %d could not be read", subj, last)
		}
	}
}
