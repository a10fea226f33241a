//! Streaming, parallel validation and conversion of whole game databases in every supported format.
