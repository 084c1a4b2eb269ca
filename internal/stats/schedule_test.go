package stats

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScheduleBlocks(t *testing.T) {
	s := NewSchedule(3, 1)
	for b := range 5 {
		var rows [][]int
		for range 3 {
			rows = append(rows, s.Next())
		}
		for pos := range 3 {
			col := []int{rows[0][pos], rows[1][pos], rows[2][pos]}
			slices.Sort(col)
			assert.Equal(t, []int{0, 1, 2}, col, "block %d position %d", b, pos)
		}
	}
	assert.Equal(t, NewSchedule(3, 9).Next(), NewSchedule(3, 9).Next(), "deterministic for a seed")
}
