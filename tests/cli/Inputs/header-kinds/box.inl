// Box's definitions: they parse only after box.h's declarations.
template <class T>
void Box<T>::set(T a, T b, T c) {
  f = [a, b, c] {};
}
