//go:build !race

package mime

// damageIterations is how many damaged files the random-damage tests
// read.
const damageIterations = 3000
