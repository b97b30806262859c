// Package slurm runs a grid on a Slurm cluster as job arrays: each array task
// runs one shard of the grid's points (sweep.ShardPlans) into its own
// database, and a merge job, queued after the array, merges the shards and
// writes the report.
//
// Setup renders and writes the scripts into an output directory (Dir: its
// layout, with GridFile, ArrayFile, MergeFile, SubmitFile, ShardDir, LogDir,
// ResultsFile and ReportFile, and its Manifest), works out which shards still
// miss points (Outstanding), and submits them (Submit) through a Scheduler:
// CLI runs sbatch, scancel, squeue and scontrol; tests use a fake. A Job
// holds the sbatch options and checks them (Validate); arrays larger than
// the cluster's MaxArraySize are split (SplitArray). A grid with rounds
// (package adaptive) runs round after round, each round a job array whose
// merge job submits the next (Dir.RoundPlans). State counts what the shards
// and the merged database hold, for ccsweep status.
//
// Errors that name bad input carry the field or directory at fault
// (*OptionError, *DirError, *SetupError, *QueuedError, and sweep's
// *ShardCountError), so that the command can name the flag its user gave.
//
// # Imports
//
// Of ccsweep, slurm imports grids, model, store, store/atomicfile, sweep
// and sweep/adaptive (the rounds of a grid that runs in rounds). It must
// never import report or report/rank: the merge job's report is drawn by
// the ccsweep binary the scripts run, not by this package.
package slurm
