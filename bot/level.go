package bot

import (
	"fmt"
	"strings"
)

// Level is a bot's difficulty: the parameters of its model of a person
// looking for a match (see the package documentation). Times are in
// milliseconds. The zero Level, apart from its name, is the instant bot.
type Level struct {
	// Name is how the level is asked for, e.g. "medium".
	Name string `json:"name"`
	// Doc says in a sentence whom the level plays like.
	Doc string `json:"doc"`
	// Orient is the time taken to look at a changed table before the
	// search starts.
	Orient float64 `json:"orient"`
	// Compare is the mean time of one comparison: looking for one symbol
	// among the symbols of another card, one at a time.
	Compare float64 `json:"compare"`
	// Noise is the spread of the search time: the σ of the log-normal
	// factor, of mean 1, that multiplies the comparisons' time.
	Noise float64 `json:"noise"`
	// Motor is the time from seeing the match to the claim arriving:
	// naming or clicking it. A table change during it comes too late to
	// stop the claim.
	Motor float64 `json:"motor"`
	// WrongRate is the probability that a search ends in a false alarm: a
	// claim of a symbol that is not the match, which the rules refuse and
	// punish with the lock-out.
	WrongRate float64 `json:"wrongRate"`
	// MissRate is the probability that a search overlooks the match for a
	// while before finding it.
	MissRate float64 `json:"missRate"`
	// MissMean is the mean of the extra time a miss costs; the extra time
	// is exponentially distributed.
	MissMean float64 `json:"missMean"`
}

// The built-in levels, slowest first. Their times put an adult's typical
// Tower claim, two cards of eight symbols, between about one and four
// seconds.
var levels = []Level{
	{Name: "easy", Doc: "A beginner or a young child: slow, often fooled, often blind to the match.",
		Orient: 600, Compare: 90, Noise: 0.35, Motor: 450, WrongRate: 0.08, MissRate: 0.15, MissMean: 3000},
	{Name: "medium", Doc: "A casual adult player.",
		Orient: 450, Compare: 60, Noise: 0.3, Motor: 350, WrongRate: 0.05, MissRate: 0.08, MissMean: 2000},
	{Name: "hard", Doc: "A practised player.",
		Orient: 350, Compare: 40, Noise: 0.25, Motor: 300, WrongRate: 0.03, MissRate: 0.04, MissMean: 1500},
	{Name: "expert", Doc: "A tournament player: fast and rarely wrong.",
		Orient: 250, Compare: 25, Noise: 0.2, Motor: 250, WrongRate: 0.01, MissRate: 0.01, MissMean: 1000},
	{Name: "instant", Doc: "A perfect player that claims the moment the table changes, for simulations and benchmarks."},
}

// Levels returns the built-in levels, slowest first: easy, medium, hard,
// expert and instant.
func Levels() []Level { return append([]Level(nil), levels...) }

// LevelNames returns the names of the built-in levels, in the order of
// Levels.
func LevelNames() []string {
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = l.Name
	}
	return names
}

// LookupLevel returns the built-in level with the given name, ignoring case
// and surrounding spaces, or an error listing the levels there are.
func LookupLevel(name string) (Level, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, l := range levels {
		if l.Name == n {
			return l, nil
		}
	}
	return Level{}, fmt.Errorf("unknown bot level %q; levels: %s", name, strings.Join(LevelNames(), ", "))
}

// Instant reports whether the level plays perfectly in no time: every
// time zero, no wrong claims, no misses.
func (l Level) Instant() bool {
	return l.Orient == 0 && l.Compare == 0 && l.Motor == 0 && l.WrongRate == 0 && l.MissRate == 0
}

// Limits of a level's parameters.
const (
	// maxTime bounds every time parameter: one day, in milliseconds.
	maxTime = 24 * 60 * 60 * 1000
	// maxNoise bounds the σ of the search-time factor.
	maxNoise = 3
)

// Validate reports the first parameter out of range: times from 0 to a day
// (86,400,000 ms), the noise from 0 to 3, rates from 0 to 1.
func (l Level) Validate() error {
	for _, p := range []struct {
		name string
		v    float64
		max  float64
	}{
		{"orient", l.Orient, maxTime}, {"compare", l.Compare, maxTime},
		{"noise", l.Noise, maxNoise}, {"motor", l.Motor, maxTime},
		{"wrongRate", l.WrongRate, 1}, {"missRate", l.MissRate, 1},
		{"missMean", l.MissMean, maxTime},
	} {
		if !(p.v >= 0 && p.v <= p.max) {
			return fmt.Errorf("bot level %q: %s %v is out of range 0..%g", l.Name, p.name, p.v, p.max)
		}
	}
	return nil
}

// ExpectedComparisons is the mean number of comparisons the model makes to
// find a match among n options (target choices, such as which opponent),
// m of which hold one, each option comparing c cards of k symbols; with
// m = 0 it is the cost of making sure that there is none.
//
// An option is searched symbol by symbol: take the next symbol of the
// first card and look for it on the second, one symbol at a time (k
// comparisons when it is absent); if found, on the third, and so on. A
// fruitless option costs k² + (c−2)k comparisons. In the option that holds
// the match, the matching symbol is equally likely to come at any of the k
// positions and is found half-way through each other card on average:
// (k−1)k/2 + (c−1)(k+1)/2 comparisons, which is (k²+1)/2 for two cards.
// Options are examined in random order, so (n−m)/(m+1) fruitless ones come
// first on average.
func ExpectedComparisons(k, c, n, m int) float64 {
	kf, cf := float64(k), float64(c)
	full := kf*kf + (cf-2)*kf
	if m <= 0 {
		return float64(n) * full
	}
	hit := (kf-1)*kf/2 + (cf-1)*(kf+1)/2
	return float64(n-m)/float64(m+1)*full + hit
}
