package stats_test

import (
	"fmt"

	"github.com/benchkit/go-benchkit/internal/stats"
)

// A Loop batch timeline with a CPU hog in the middle: the hog's batches
// are spiky, so a split by value finds no two regimes, but in order they
// form one block.
func ExampleShiftedBlock() {
	timeline := []float64{
		51, 49, 50, 52, 48, 50, 51, 49, 50, 48,
		160, 410, 95, 2300, 180, 150, 620, 140, 52, 240, 175, 1900,
		50, 49, 51, 50, 48, 52, 50, 49, 51, 50, 52, 48,
	}
	_, bimodal := stats.TwoRegimes(timeline)
	r, shifted := stats.ShiftedBlock(timeline)
	fmt.Println("two regimes by value:", bimodal)
	fmt.Println("level shift:", shifted)
	fmt.Printf("low  %.0f ns × %d, batches %v\n", r.Low.Center, r.Low.Size, r.Low.Segments)
	fmt.Printf("high %.0f ns × %d, batches %v\n", r.High.Center, r.High.Size, r.High.Segments)
	// Output:
	// two regimes by value: false
	// level shift: true
	// low  50 ns × 22, batches [[0 10] [22 34]]
	// high 178 ns × 12, batches [[10 22]]
}
