package model

// Version identifies the model's behaviour. It changes whenever the same
// scenario, parameters and seed could give different results, and it is part
// of every sweep point's identity.
const Version = "ib-11"
