export * from "./address-policy.js";
export * from "./outbound-client.js";
