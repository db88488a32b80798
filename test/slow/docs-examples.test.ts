/**
 * The shell examples of docs/ run as printed (the convention: test/docs/examples.test.ts). They spawn
 * the built CLI some 60 times, so they run here, in the slow suite; README.md and examples/README.md
 * run in the default suite.
 */
import { describeExampleRuns, isFrontDoorDoc } from '../docs/example-runs.js';

describeExampleRuns((file) => !isFrontDoorDoc(file));
