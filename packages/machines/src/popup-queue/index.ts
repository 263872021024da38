export * from "./popup-queue-machine";
