from boxes import Box

shapes = {'s': Box}
