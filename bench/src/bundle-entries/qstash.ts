// Bundle-size entry: the peer SDK's client.
export { Client } from "@upstash/qstash";
