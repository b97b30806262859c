#!/bin/bash
# Submits the ccsweep job array for grid shards, 5 shards in 1 array(s)
# (MaxArraySize 1001), and then the merge job, which runs once every
# array task has ended. Written by ccsweep slurm; ccsweep slurm ... --submit
# does the same, and run again it submits only the shards still missing points.
set -euo pipefail
ids=()
ids+=("$(sbatch --parsable --array=1-5 OUT/job.sbatch 0 | cut -d';' -f1)")
merge=$(sbatch --parsable --dependency=afterany:"$(IFS=:; echo "${ids[*]}")" OUT/merge.sbatch | cut -d';' -f1)
echo "array job(s) ${ids[*]}; merge job $merge"
echo "follow with: squeue -j $(IFS=,; echo "${ids[*]}"),$merge; CCSWEEP status OUT"
