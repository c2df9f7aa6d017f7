package tree

// SetDescribeHook sets the hook each walk calls with the path of every
// file it opens to classify (nil: none), for the tests of package tree_test.
func SetDescribeHook(f func(path string)) { describeHook = f }
