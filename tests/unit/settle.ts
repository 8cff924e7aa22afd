/**
 * Lets every answer already on its way arrive: the fake ports answer through promises, so one turn
 * of the event loop (all microtasks, then the check phase) delivers them. `setImmediate`, not
 * `setTimeout(0)`: Node clamps a zero timeout to 1 ms and a loaded machine stretches it further,
 * so a property test that settles thousands of times waited seconds for nothing (issue 25).
 */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
