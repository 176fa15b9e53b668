// Entry of the browser page: the emulator's address and credentials come in the URL's fragment (a
// JSON object); the checks are written into <pre id="result"> and `window.__runtimeResult`.
import { runScenario } from "./scenario.mjs";

const config = JSON.parse(decodeURIComponent(location.hash.slice(1)));
runScenario(config).then((checks) => {
  document.getElementById("result").textContent = JSON.stringify(checks);
  window.__runtimeResult = checks;
});
