// The global setup of the "vitest-kit" project, written as a consumer writes it.
import { emulatorSetup } from "../../src/vitest.js";

export default emulatorSetup({ seedLogs: 30, burstLimit: 50 });
