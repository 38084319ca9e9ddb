/**
 * Each input request the `ask` tool (mrtr-tools.ts) makes, by its `kind` argument: capabilities that lack what it
 * needs, the -32021 `requiredCapabilities` it then gets, capabilities enough for it, and the key and method it is
 * asked under. Both eras' capability checks derive their cases from it.
 */
export const INPUT_CAPABILITY_CASES = [
  ['form elicitation', 'form', {}, { elicitation: {} }, { elicitation: {} }, ['elicit-1', 'elicitation/create']],
  [
    'form elicitation from a client that lists only URL mode',
    'form',
    { elicitation: { url: {} } },
    { elicitation: { form: {} } },
    { elicitation: { form: {} } },
    ['elicit-1', 'elicitation/create'],
  ],
  ['URL elicitation', 'url', { elicitation: {} }, { elicitation: { url: {} } }, { elicitation: { url: {} } }, ['elicit-1', 'elicitation/create']],
  ['sampling', 'sampling', { elicitation: {}, roots: {} }, { sampling: {} }, { sampling: {} }, ['sample-1', 'sampling/createMessage']],
  ['sampling with tools', 'sampling_tools', { sampling: {} }, { sampling: { tools: {} } }, { sampling: { tools: {} } }, ['sample-1', 'sampling/createMessage']],
  [
    'sampling with tools from a client that declares no sampling',
    'sampling_tools',
    { elicitation: {} },
    { sampling: { tools: {} } },
    { sampling: { tools: {} } },
    ['sample-1', 'sampling/createMessage'],
  ],
  ['sampling with a tool choice', 'sampling_tool_choice', { sampling: {} }, { sampling: { tools: {} } }, { sampling: { tools: {} } }, ['sample-1', 'sampling/createMessage']],
  [
    'sampling with context inclusion',
    'sampling_context',
    { sampling: {} },
    { sampling: { context: {} } },
    { sampling: { context: {} } },
    ['sample-1', 'sampling/createMessage'],
  ],
  [
    'sampling with context inclusion from a client that declares no sampling',
    'sampling_context',
    {},
    { sampling: { context: {} } },
    { sampling: { context: {} } },
    ['sample-1', 'sampling/createMessage'],
  ],
  ['sampling that includes no context', 'sampling_no_context', { elicitation: {} }, { sampling: {} }, { sampling: {} }, ['sample-1', 'sampling/createMessage']],
  ['roots', 'roots', { sampling: {}, elicitation: {} }, { roots: {} }, { roots: {} }, ['roots-1', 'roots/list']],
] as const;
