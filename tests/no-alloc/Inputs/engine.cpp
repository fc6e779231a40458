namespace audio {
struct Voice {
  long a;
};
struct Mixer {
  void process() { delete new Voice; }
  void reset() { delete new Voice; }
};
} // namespace audio
void render() { delete new audio::Voice; }
