//go:build !race

package archive

// damageIterations is how many damaged files the random-damage tests
// read.
const damageIterations = 3000
