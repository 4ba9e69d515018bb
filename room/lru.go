package room

import "container/list"

// lru keeps values by key up to a bound, dropping the least recently used
// first. Each value weighs what weigh says (1 for a count of entries, its
// length for bytes); a value heavier than the whole bound is not kept. It
// is not safe for concurrent use.
type lru[K comparable, V any] struct {
	max     int64
	weigh   func(V) int64
	used    int64
	order   *list.List // of *lruEntry, the most recently used first
	items   map[K]*list.Element
	dropped func() // called for each value dropped for the bound
}

type lruEntry[K comparable, V any] struct {
	key    K
	val    V
	weight int64
}

// newLRU returns an empty cache of at most max, each value weighing
// weigh(v); dropped, when not nil, is called for each value dropped.
func newLRU[K comparable, V any](max int64, weigh func(V) int64, dropped func()) *lru[K, V] {
	return &lru[K, V]{max: max, weigh: weigh, order: list.New(), items: map[K]*list.Element{}, dropped: dropped}
}

// get returns the value of key and marks it the most recently used.
func (c *lru[K, V]) get(key K) (V, bool) {
	e, ok := c.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry[K, V]).val, true
}

// add keeps val for key as the most recently used, dropping the least
// recently used values until the cache is within its bound.
func (c *lru[K, V]) add(key K, val V) {
	if e, ok := c.items[key]; ok {
		c.remove(e)
	}
	w := c.weigh(val)
	if w > c.max {
		return
	}
	c.items[key] = c.order.PushFront(&lruEntry[K, V]{key: key, val: val, weight: w})
	c.used += w
	for c.used > c.max {
		c.remove(c.order.Back())
		if c.dropped != nil {
			c.dropped()
		}
	}
}

// remove forgets entry e.
func (c *lru[K, V]) remove(e *list.Element) {
	ent := c.order.Remove(e).(*lruEntry[K, V])
	delete(c.items, ent.key)
	c.used -= ent.weight
}

// len returns the number of values kept.
func (c *lru[K, V]) len() int { return len(c.items) }

// weight returns the weight of the values kept.
func (c *lru[K, V]) weight() int64 { return c.used }
