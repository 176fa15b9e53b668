// vitest's JSON reporter, plus what its report leaves out: the errors vitest caught outside any test
// (an unhandled rejection, an error thrown after a test ended). vitest counts them, prints them under
// "Errors" and exits non-zero, but its JSON report says nothing of them; scripts/test.mjs counts them
// from `numUnhandledErrors` (scripts/lib/test-summary.mjs). Used by every vitest config:
//   reporters: ["default", "<repo>/scripts/lib/vitest-json-reporter.mjs"]
import { JsonReporter } from "vitest/node";

export default class JsonReporterWithErrors extends JsonReporter {
  numUnhandledErrors = 0;

  async onTestRunEnd(testModules, unhandledErrors, reason) {
    this.numUnhandledErrors = unhandledErrors.length;
    await super.onTestRunEnd(testModules, unhandledErrors, reason);
  }

  async writeReport(report) {
    const parsed = JSON.parse(report);
    parsed.numUnhandledErrors = this.numUnhandledErrors;
    if (this.numUnhandledErrors > 0) parsed.success = false;
    await super.writeReport(JSON.stringify(parsed));
  }
}
