/** The bridge's version, as package.json and the add-on's config.yaml give it (a test keeps them in step). */
export const BRIDGE_VERSION = "0.4.0";
