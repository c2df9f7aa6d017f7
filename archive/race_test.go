//go:build race

package archive

// damageIterations is how many damaged files the random-damage tests
// read: fewer under the race detector, which makes them ten times slower.
const damageIterations = 300
