// Entry of workerd (through Miniflare): a Worker whose fetch handler runs the scenario and answers
// the checks as JSON. The emulator's address and credentials come in the CONFIG binding.
import { otelCheck } from "./otel.mjs";
import { runScenario } from "./scenario.mjs";

export default {
  async fetch(_request, env) {
    return Response.json(await runScenario(JSON.parse(env.CONFIG), { otelCheck }));
  },
};
