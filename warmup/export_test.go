package warmup

import "time"

// FakeBatches returns an Option that replaces the machine with synthetic
// batch times: the i-th timed batch takes times[i] (the last value repeats
// once the list runs out), calibration takes calibrate and returns 1 unit,
// and the fake clock advances by exactly those amounts. Tests use it to
// drive the stability logic without reading the wall clock.
func FakeBatches(calibrate time.Duration, times ...time.Duration) Option {
	return optionFunc(func(c *config) { c.src = &fakeSource{cal: calibrate, times: times} })
}

type fakeSource struct {
	cal   time.Duration
	times []time.Duration
	i     int
	now   time.Duration
	units []int // units passed to each batch
}

func (f *fakeSource) elapsed() time.Duration { return f.now }

func (f *fakeSource) calibrate(target, limit time.Duration) int {
	f.now += f.cal
	return 1
}

func (f *fakeSource) batch(units int) time.Duration {
	f.units = append(f.units, units)
	d := f.times[min(f.i, len(f.times)-1)]
	f.i++
	f.now += d
	return d
}

// Workload exposes the warm-up workload to tests.
func Workload(data []uint64) uint64 { return unit(data) }

// NewData exposes the workload's input to tests.
func NewData() []uint64 { return newData() }

// Machine runs the real calibration and returns the units per batch.
func Machine(target, limit time.Duration) int { return newMachine().calibrate(target, limit) }
