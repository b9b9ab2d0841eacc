"""A class's work: finding students' submissions, grading them (here or on a cluster), the
results store, assignments and deadlines, rejudging, and similarity across the class."""
