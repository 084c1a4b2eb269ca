package stats

import "math/rand/v2"

// Schedule hands out round orders in balanced blocks: each block of m
// rounds is a cyclic Latin square over a fresh random permutation, with its
// rows in random order, so every implementation (or process) takes every
// position once per block and the neighbours change from block to block.
type Schedule struct {
	rng   *rand.Rand
	m     int
	block [][]int
}

// NewSchedule returns the schedule of m entries drawn from seed.
func NewSchedule(m int, seed uint64) *Schedule {
	return &Schedule{rng: rand.New(rand.NewPCG(seed, seed^0xda942042e4dd58b5)), m: m}
}

// Next returns the next round's order: a permutation of 0..m-1.
func (s *Schedule) Next() []int {
	if len(s.block) == 0 {
		p := s.rng.Perm(s.m)
		s.block = make([][]int, s.m)
		for j := range s.block {
			row := make([]int, s.m)
			for k := range row {
				row[k] = p[(k+j)%s.m]
			}
			s.block[j] = row
		}
		s.rng.Shuffle(len(s.block), func(a, b int) { s.block[a], s.block[b] = s.block[b], s.block[a] })
	}
	o := s.block[0]
	s.block = s.block[1:]
	return o
}
