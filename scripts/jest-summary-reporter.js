/**
 * Prints the plain closing line CI reads ("N passed, N failed[, N skipped]") as the very last line of a Jest
 * run, after Jest's own summary (hence at process exit: Jest prints its summary after custom reporters).
 */
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.once('exit', () => process.stdout.write(`\n${line}\n`));
  }
}
