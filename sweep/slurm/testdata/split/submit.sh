#!/bin/bash
# Submits the ccsweep job array for grid fig11-14, 12 shards in 3 array(s)
# (MaxArraySize 5), and then the merge job, which runs once every
# array task has ended. Written by ccsweep slurm; ccsweep slurm ... --submit
# does the same, and run again it submits only the shards still missing points.
set -euo pipefail
ids=()
ids+=("$(sbatch --parsable --array=1-4%6 /scratch/me/fig11/job.sbatch 0 | cut -d';' -f1)")
ids+=("$(sbatch --parsable --array=1-4%6 /scratch/me/fig11/job.sbatch 4 | cut -d';' -f1)")
ids+=("$(sbatch --parsable --array=1-4%6 /scratch/me/fig11/job.sbatch 8 | cut -d';' -f1)")
merge=$(sbatch --parsable --dependency=afterany:"$(IFS=:; echo "${ids[*]}")" /scratch/me/fig11/merge.sbatch | cut -d';' -f1)
echo "array job(s) ${ids[*]}; merge job $merge"
echo "follow with: squeue -j $(IFS=,; echo "${ids[*]}"),$merge; /home/me/bin/ccsweep status /scratch/me/fig11"
