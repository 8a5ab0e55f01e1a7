/** The Demo IdP lives with the demo site (demo/idp.ts); the tests use the same one. */
export * from '../../demo/idp.js'
