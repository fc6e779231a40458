void broken( {
