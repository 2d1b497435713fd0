#include <cstdio>
#include "tractrix/tractrix.hpp"
int main(){ std::printf("%zu %zu %zu %zu\n", sizeof(tractrix::MeasuredPath<double>::Lookup), sizeof(tractrix::MeasuredPath<float>::Lookup), sizeof(tractrix::ArcLengthTable<double>::Lookup), sizeof(tractrix::Path<double,3>::Lookup)); }
